import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { readableScope, workerDeps } from "../backups/wiring";
import { enqueueExport } from "./queue";
import { callerOf } from "../http/authenticate";
import { sendCsvReport, sendDownload } from "../http/write-chunk";
import type { OrganizationService } from "../organizations/service";
import { exportDownload, exportList, exportReport, getExport, startExport } from "./jobs";
import { exportDrive, exportMailbox } from "./service";
import { exportStorage } from "./task";

/**
 * Exports, for the organisation's admins: export jobs (start one, 202; list; follow one; its report; a
 * download link), and the direct streamed MBOX/ZIP downloads of a few items.
 */
export function exportRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId/exports";
  router.post(base, async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    const readable = await readableScope(organization);
    response.status(202).json(await startExport(readable, request.body, caller.email, enqueueExport));
  });
  router.get(base, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await exportList(organization, request.query as Record<string, unknown>));
  });
  router.get(`${base}/:exportId`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    response.json(await getExport(organization, request.params.exportId));
  });
  router.get(`${base}/:exportId/report`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    const lines = await exportReport(organization, request.params.exportId);
    await sendCsvReport(response, `export-${request.params.exportId}.csv`, lines);
  });
  router.post(`${base}/:exportId/download`, async (request, response) => {
    const caller = callerOf(response);
    const organization = await organizations().requireAdmin(caller, request.params.organizationId);
    response.setHeader("Cache-Control", "no-store");
    const readable = await readableScope(organization);
    response.json(await exportDownload(readable, request.params.exportId, caller.email, exportStorage));
  });
  router.post(`${base}/mbox`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    const readable = await readableScope(organization);
    await sendDownload(response, await exportMailbox(readable, request.body, workerDeps()));
  });
  router.post(`${base}/zip`, async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    const readable = await readableScope(organization);
    await sendDownload(response, await exportDrive(readable, request.body, workerDeps()));
  });
  return router;
}
