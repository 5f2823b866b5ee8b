import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import { dispatchRun } from "../backups/service";
import type { OrganizationService } from "../organizations/service";
import { assignPolicy, createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from "./service";

/** Backup policies of one organisation (its admins only): CRUD, plan rules, assignment to resources. */
export function policyRoutes(deps: () => { organizations: OrganizationService }): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId/policies";

  const admin = async (organizationId: string, caller: ReturnType<typeof callerOf>) => {
    const organization = await deps().organizations.requireAdmin(caller, organizationId);
    return { organization, actor: caller.email };
  };

  router.get(base, async (request, response) => {
    const { organization } = await admin(request.params.organizationId, callerOf(response));
    response.json(await listPolicies(organization));
  });

  router.post(base, async (request, response) => {
    const { organization, actor } = await admin(request.params.organizationId, callerOf(response));
    response.status(201).json(await createPolicy(organization, request.body, actor));
  });

  router.get(`${base}/:policyId`, async (request, response) => {
    const { organization } = await admin(request.params.organizationId, callerOf(response));
    response.json(await getPolicy(organization, request.params.policyId));
  });

  router.patch(`${base}/:policyId`, async (request, response) => {
    const { organization, actor } = await admin(request.params.organizationId, callerOf(response));
    response.json(await updatePolicy(organization, request.params.policyId, request.body, actor));
  });

  router.delete(`${base}/:policyId`, async (request, response) => {
    const { organization, actor } = await admin(request.params.organizationId, callerOf(response));
    response.json(await deletePolicy(organization, request.params.policyId, actor));
  });

  router.post(`${base}/:policyId/assign`, async (request, response) => {
    const { organization, actor } = await admin(request.params.organizationId, callerOf(response));
    response.json(
      await assignPolicy(organization, request.params.policyId, request.body, actor, dispatchRun),
    );
  });

  return router;
}
