import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { drillRun, drillRuns, getDrillSettings, putDrillSettings, startDrill } from "./service";

/** Restore drills: settings, a drill now (202) and the history, for the organisation's admins. */
export function drillRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId/drills";
  router.get(base, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await getDrillSettings(organization));
  });
  router.put(base, async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    response.json(await putDrillSettings(organization, request.body, caller.email));
  });
  router.post(`${base}/run`, async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    response.status(202).json(await startDrill(organization, caller.email));
  });
  router.get(`${base}/runs`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await drillRuns(organization, request.query as Record<string, unknown>));
  });
  router.get(`${base}/runs/:drillRunId`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await drillRun(organization, request.params.drillRunId));
  });
  return router;
}
