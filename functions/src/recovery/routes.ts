import { type Router } from "express";
import { readableScope } from "../backups/wiring";
import { apiRouter } from "../http/api-router";
import { callerOf } from "../http/authenticate";
import { sendCsvReport } from "../http/write-chunk";
import type { OrganizationService } from "../organizations/service";
import { estimateRecovery, getRecovery, listRecoveries, recoveryReport, startRecovery } from "./service";

/**
 * Recoveries (docs/requirements.md#screens-and-navigation recovery modal): estimate one, start one (202) and
 * follow it, for the organisation's admins.
 */
export function recoveryRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId/recoveries";
  router.post(base, async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    const readable = await readableScope(organization);
    response.status(202).json(await startRecovery(readable, request.body, caller.email));
  });
  router.get(base, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await listRecoveries(organization, request.query as Record<string, unknown>));
  });
  // What a recovery would restore and about how long it would take; nothing is started.
  router.post(`${base}/estimate`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    const readable = await readableScope(organization);
    response.json(await estimateRecovery(readable, request.body));
  });
  router.get(`${base}/:recoveryId`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await getRecovery(organization, request.params.recoveryId));
  });
  router.get(`${base}/:recoveryId/report`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    const lines = await recoveryReport(organization, request.params.recoveryId);
    await sendCsvReport(response, `recovery-${request.params.recoveryId}.csv`, lines);
  });
  return router;
}
