import { type Router, type Request, type Response } from "express";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import type { SecretService } from "./service";

/**
 * Secrets (encryption keys): the built-in default key and customer Cloud KMS keys of one organisation,
 * for its admins only. `POST …/secrets/{id}:check` (or `/check`) asks Cloud KMS about the key now.
 */
export function secretRoutes(
  deps: () => { organizations: OrganizationService; secrets: SecretService },
): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId/secrets";

  /** The organisation (404/403 unless the caller is its admin) and the caller's email for the audit log. */
  async function admin(request: Request, response: Response) {
    const caller = callerOf(response);
    const organization = await deps().organizations.requireAdmin(
      caller,
      request.params.organizationId as string,
    );
    return { organization, actor: caller.email };
  }

  router.get(base, async (request, response) => {
    const { organization } = await admin(request, response);
    response.json(await deps().secrets.list(organization));
  });

  router.post(base, async (request, response) => {
    const { organization, actor } = await admin(request, response);
    const secret = await deps().secrets.create(organization, actor, request.body);
    response.status(201).json({ secret });
  });

  router.patch(`${base}/:secretId`, async (request, response) => {
    const { organization, actor } = await admin(request, response);
    const secret = await deps().secrets.update(
      organization,
      actor,
      request.params.secretId as string,
      request.body,
    );
    response.json({ secret });
  });

  router.delete(`${base}/:secretId`, async (request, response) => {
    const { organization, actor } = await admin(request, response);
    await deps().secrets.remove(organization, actor, request.params.secretId as string);
    response.status(204).end();
  });

  const check = async (request: Request, response: Response) => {
    const { organization, actor } = await admin(request, response);
    const secret = await deps().secrets.check(organization, actor, request.params.secretId as string);
    response.json({ secret });
  };
  router.post(`${base}/:secretId\\:check`, check);
  router.post(`${base}/:secretId/check`, check);

  router.post(`${base}/:secretId/default`, async (request, response) => {
    const { organization, actor } = await admin(request, response);
    response.json(await deps().secrets.setDefault(organization, actor, request.params.secretId as string));
  });

  return router;
}
