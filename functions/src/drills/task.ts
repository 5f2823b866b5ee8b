import type { Request } from "firebase-functions/v2/tasks";
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import { isId } from "@alpvault/contracts/ids";
import type { RegionId } from "@alpvault/contracts/regions";
import { loadWorkspaceConfig } from "../config";
import * as logs from "../logs";
import { googleClientOptions } from "../backup/google/client-options";
import { enqueueDrill } from "../backup/queue";
import { TASK_BUDGET_MS, workerDeps } from "../backup/wiring";
import { delegatedJwt, workspaceRootUrl } from "../workspace/gateway";
import { executeDrill, type DrillDeps } from "./worker";

/** Restoring into the sandbox mailbox, reading it back, and moving it to the trash afterwards. */
const GMAIL_SCOPES = [
  "https://www.googleapis.com/auth/gmail.insert",
  "https://www.googleapis.com/auth/gmail.labels",
  "https://www.googleapis.com/auth/gmail.modify",
];

const DRIVE_SCOPES = ["https://www.googleapis.com/auth/drive"];

let deps: DrillDeps | undefined;

function drillDeps(): DrillDeps {
  if (deps) return deps;
  const backup = workerDeps();
  const workspace = loadWorkspaceConfig();
  const rootUrl = workspaceRootUrl(workspace);
  deps = {
    caller: backup.caller,
    gmail: (user) =>
      new gmail_v1.Gmail(
        googleClientOptions({
          auth: delegatedJwt(workspace, user, GMAIL_SCOPES),
          ...(rootUrl ? { rootUrl } : {}),
        }),
      ),
    drive: (user) =>
      new drive_v3.Drive(
        googleClientOptions({
          auth: delegatedJwt(workspace, user, DRIVE_SCOPES),
          ...(rootUrl ? { rootUrl } : {}),
        }),
      ),
    upload: (user) => {
      const auth = delegatedJwt(workspace, user, DRIVE_SCOPES);
      return {
        rootUrl: rootUrl ?? "https://www.googleapis.com/",
        accessToken: async () => (await auth.getAccessToken()).token ?? "",
      };
    },
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
  return async (request: Request<unknown>): Promise<void> => {
    const queue = `${regionId}-runDrill`;
    logs.taskReceived({ queue, taskId: request.id, retryCount: request.retryCount });
    const data = (request.data ?? {}) as { organizationId?: unknown; drillRunId?: unknown };
    if (!isId(data.organizationId) || !isId(data.drillRunId)) {
      logs.taskDropped({ queue, taskId: request.id, reason: "invalid payload" });
      return;
    }
    await executeDrill(
      { organizationId: data.organizationId, drillRunId: data.drillRunId },
      { ...drillDeps(), servingRegion: regionId },
    );
  };
}
