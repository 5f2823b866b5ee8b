import { Router } from "express";
import { workerDeps } from "../backup/wiring";
import { callerOf } from "../http/authenticate";
import type { OrganizationService } from "../organizations/service";
import { exportMailbox } from "./service";

/** Export (beyond the spec): a mailbox's backed-up mail as MBOX, streamed, for the organisation's admins. */
export function exportRoutes(organizations: () => OrganizationService): Router {
  const router = Router();
  router.post("/organizations/:organizationId/exports/mbox", async (request, response) => {
    const organization = await organizations().requireAdmin(
      callerOf(response),
      request.params.organizationId,
    );
    await exportMailbox(organization, request.body, response, workerDeps());
  });
  return router;
}
