import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueDrill } from "../backup/queue";
import { TASK_BUDGET_MS, workerDeps } from "../backup/wiring";
import { organizationTaskHandler } from "../lib/task-handler";
import { restoreClients } from "../workspace/restore-clients";
import { executeDrill, type DrillDeps } from "./worker";

let deps: DrillDeps | undefined;

function drillDeps(): DrillDeps {
  if (deps) return deps;
  const backup = workerDeps();
  deps = {
    caller: backup.caller,
    ...restoreClients(),
    blobStore: backup.blobStore,
    wrappers: backup.wrappers,
    enqueue: enqueueDrill,
    budgetMs: TASK_BUDGET_MS,
  };
  return deps;
}

/**
 * Handles one `runDrill` delivery in `regionId`'s queue; a malformed payload, or a drill of another
 * region's organisation, is dropped.
 */
export function drillTaskHandler(regionId: RegionId) {
  return organizationTaskHandler(`${regionId}-runDrill`, "drillRunId", (task) =>
    executeDrill(task, { ...drillDeps(), servingRegion: regionId }),
  );
}
