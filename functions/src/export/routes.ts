import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import { workerDeps } from "../backup/wiring";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { exportDrive, exportMailbox } from "./service";

/** Export (beyond the spec): mail as MBOX, Drive files as ZIP, streamed, for the organisation's admins. */
export function exportRoutes(organizations: () => OrganizationService): Router {
  const router = apiRouter();
  router.post("/organizations/:organizationId/exports/mbox", async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    await exportMailbox(organization, request.body, response, workerDeps());
  });
  router.post("/organizations/:organizationId/exports/zip", async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    await exportDrive(organization, request.body, response, workerDeps());
  });
  return router;
}
