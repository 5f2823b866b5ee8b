import { type Router } from "express";
import { readableScope } from "../backups/wiring";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { BROWSE_TERMS, browseBackups } from "./browse";
import { SEARCH_TERMS, bodyTerms, searchBackups } from "./service";

/**
 * Searching backups (docs/requirements.md#screens-and-navigation Search backups) and browsing them at a
 * point in time (#backup-activity): the catalog of one resource, for the organisation's admins. Both take
 * their terms in the request body (POST), so that no keyword, name or address is ever in a URL and the
 * access logs between the browser and us.
 */
export function searchRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  router.post("/organizations/:organizationId/search", async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    const terms = bodyTerms(request.body, SEARCH_TERMS);
    const readable = await readableScope(organization);
    response.json(await searchBackups(readable, terms, caller.email));
  });
  router.post("/organizations/:organizationId/resources/:resourceId/browse", async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    const terms = bodyTerms(request.body, BROWSE_TERMS);
    const readable = await readableScope(organization);
    response.json(await browseBackups(readable, request.params.resourceId, terms, caller.email));
  });
  return router;
}
