import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { integrityReport, verifyNow } from "../backups/verify/service";

/**
 * Integrity verification of an organisation's backups (its admins only): the last results per resource and
 * the recent runs, and "verify now" (202 with the run).
 */
export function integrityRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId/integrity";
  router.get(base, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await integrityReport(organization));
  });
  router.post(`${base}/verify`, async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    response.status(202).json(await verifyNow(organization, request.body, caller.email));
  });
  return router;
}
