import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import type { OrganizationService } from "../organizations/service";
import { callerOf } from "../http/authenticate";
import type { WorkspaceGateway } from "../workspace/gateway";
import { backupNow } from "../backups/service";
import { activity, runHistory } from "../backups/history";
import {
  alerts,
  analytics,
  listPage,
  markAllRead,
  parseResourcesQuery,
  resourceDetail,
  syncResources,
} from "./service";

/**
 * The resources screen and a resource's page: list, re-sync, analytics and alerts of one organisation, one
 * resource with its backup history, and the organisation's activity per day (its admins only).
 */
export function resourceRoutes(
  deps: () => { organizations: OrganizationService; workspace: WorkspaceGateway },
): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId";

  router.get(`${base}/resources`, async (request, response) => {
    const query = parseResourcesQuery(request.query as Record<string, unknown>);
    const organization = await deps().organizations.requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await listPage(organization, query));
  });

  router.post(`${base}/resources/sync`, async (request, response) => {
    const caller = callerOf(response);
    const { organizations, workspace } = deps();
    const organization = await organizations.requireAdmin(caller, request.params.organizationId);
    response.json(await syncResources(workspace, organization, caller.email, new Date(), caller.email));
  });

  router.post(`${base}/resources/:resourceId/backups`, async (request, response) => {
    const caller = callerOf(response);
    const organization = await deps().organizations.requireAdmin(caller, request.params.organizationId);
    const started = await backupNow(organization, request.params.resourceId, caller.email);
    response.status(202).json(started);
  });

  router.get(`${base}/resources/:resourceId`, async (request, response) => {
    const organization = await deps().organizations.requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await resourceDetail(organization, request.params.resourceId));
  });

  router.get(`${base}/resources/:resourceId/runs`, async (request, response) => {
    const organization = await deps().organizations.requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    const { resourceId } = await resourceDetail(organization, request.params.resourceId);
    response.json(await runHistory(organization, resourceId, request.query as Record<string, unknown>));
  });

  router.get(`${base}/activity`, async (request, response) => {
    const organization = await deps().organizations.requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await activity(organization, request.query as Record<string, unknown>, new Date()));
  });

  router.get(`${base}/analytics`, async (request, response) => {
    const organization = await deps().organizations.requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await analytics(organization));
  });

  router.get(`${base}/alerts`, async (request, response) => {
    const organization = await deps().organizations.requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await alerts(organization));
  });

  router.post(`${base}/alerts/mark-all-read`, async (request, response) => {
    const organization = await deps().organizations.requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await markAllRead(organization));
  });

  return router;
}
