import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueDrill } from "./queue";
import { restoreWorkerDeps } from "../backups/wiring";
import { organizationTaskHandler } from "../lib/task-handler";
import { executeDrill, type DrillDeps } from "./worker";

let deps: DrillDeps | undefined;

function drillDeps(): DrillDeps {
  deps ??= restoreWorkerDeps(enqueueDrill);
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
