import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueRecovery } from "./queue";
import { restoreWorkerDeps } from "../backups/wiring";
import { organizationTaskHandler } from "../lib/task-handler";
import { executeRecovery, type RecoveryDeps } from "./worker";

let deps: RecoveryDeps | undefined;

function recoveryDeps(): RecoveryDeps {
  deps ??= restoreWorkerDeps(enqueueRecovery);
  return deps;
}

/**
 * Handles one `runRecovery` delivery in `regionId`'s queue; a malformed payload, or a recovery of another
 * region's organisation, is dropped.
 */
export function recoveryTaskHandler(regionId: RegionId) {
  return organizationTaskHandler(`${regionId}-runRecovery`, "recoveryId", (task) =>
    executeRecovery(task, { ...recoveryDeps(), servingRegion: regionId }),
  );
}
