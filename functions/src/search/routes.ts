import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { browseBackups } from "./browse";
import { searchBackups } from "./service";

/**
 * Searching backups (docs/requirements.md#screens-and-navigation Search backups) and browsing them at a
 * point in time (#backup-activity): the catalog of one resource, for the organisation's admins.
 */
export function searchRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  router.get("/organizations/:organizationId/search", async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    response.json(await searchBackups(organization, request.query as Record<string, unknown>, caller.email));
  });
  router.get("/organizations/:organizationId/resources/:resourceId/browse", async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    const query = request.query as Record<string, unknown>;
    response.json(await browseBackups(organization, request.params.resourceId, query, caller.email));
  });
  return router;
}
