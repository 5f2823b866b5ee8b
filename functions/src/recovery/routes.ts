import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { getRecovery, startRecovery } from "./service";

/** Recoveries (spec §2 recovery modal): start one (202) and follow it, for the organisation's admins. */
export function recoveryRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId/recoveries";
  router.post(base, async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    response.status(202).json(await startRecovery(organization, request.body, caller.email));
  });
  router.get(`${base}/:recoveryId`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await getRecovery(organization, request.params.recoveryId));
  });
  return router;
}
