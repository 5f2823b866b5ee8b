import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { auditPage, verifyAudit } from "./service";

/** The audit log (docs/requirements.md#screens-and-navigation Audit Logs) and the check of its hash chain: read only; no route edits or deletes entries. */
export function auditRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  router.get("/organizations/:organizationId/audit-logs", async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await auditPage(organization, request.query as Record<string, unknown>));
  });
  router.get("/organizations/:organizationId/audit-logs/verify", async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await verifyAudit(organization));
  });
  return router;
}
