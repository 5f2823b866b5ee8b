/**
 * The `collectBackupGarbage` task: retention and garbage collection of one organisation, at most once a
 * day (the dispatcher enqueues it when `meta/gc.lastRunAt` is a day old). Data keys are unwrapped with the
 * secret that wrapped them, to read manifests; a key that cannot be used fails the task before anything
 * is swept (Cloud Tasks retries it later).
 */
import type { Request } from "firebase-functions/v2/tasks";
import * as logs from "../../logs";
import { isId } from "@alpvault/contracts/ids";
import type { RegionId } from "@alpvault/contracts/regions";
import { organizationServedIn } from "../../organizations/service";
import { dataKeyResolver } from "../data-keys";
import { workerDeps } from "../wiring";
import { collectGarbage } from "./gc";

/** Handles one `collectBackupGarbage` delivery in `regionId`'s queue (another region's organisation: dropped). */
export function gcTaskHandler(regionId: RegionId) {
  return (request: Request<unknown>): Promise<void> => collectFor(regionId, request);
}

async function collectFor(regionId: RegionId, request: Request<unknown>): Promise<void> {
  const organizationId = (request.data as { organizationId?: unknown } | null)?.organizationId;
  if (!isId(organizationId)) {
    logs.taskDropped({
      queue: `${regionId}-collectBackupGarbage`,
      taskId: request.id,
      reason: "invalid organizationId",
    });
    return;
  }
  const organization = await organizationServedIn(organizationId, regionId);
  if (!organization) return;
  const scope = { organizationId, regionId: organization.regionId };
  const deps = workerDeps();
  const keys = dataKeyResolver(scope, deps.wrappers);
  const result = await collectGarbage({
    scope,
    blobStore: deps.blobStore(scope.regionId),
    keys,
    now: new Date(),
  });
  logs.gcEnded({ organizationId, ...result });
}
