import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueRecovery } from "../backup/queue";
import { TASK_BUDGET_MS, workerDeps } from "../backup/wiring";
import { organizationTaskHandler } from "../lib/task-handler";
import { restoreClients } from "../workspace/restore-clients";
import { executeRecovery, type RecoveryDeps } from "./worker";

let deps: RecoveryDeps | undefined;

function recoveryDeps(): RecoveryDeps {
  if (deps) return deps;
  const backup = workerDeps();
  deps = {
    caller: backup.caller,
    ...restoreClients(),
    blobStore: backup.blobStore,
    wrappers: backup.wrappers,
    enqueue: enqueueRecovery,
    budgetMs: TASK_BUDGET_MS,
  };
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
