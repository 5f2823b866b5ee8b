/**
 * The handler of one delivery of a task queue whose tasks name an organisation and one document of it
 * (`{organizationId, <idField>}`): logs the delivery, drops a malformed payload (an id that is not an id),
 * and runs the task. Which region's organisations a worker serves is the worker's to check.
 */
import type { Request } from "firebase-functions/v2/tasks";
import { isId } from "@alpvault/contracts/ids";
import * as logs from "../logs";

export function organizationTaskHandler<K extends string>(
  queue: string,
  idField: K,
  run: (task: { organizationId: string } & Record<K, string>) => Promise<unknown>,
) {
  return async (request: Request<unknown>): Promise<void> => {
    logs.taskReceived({ queue, taskId: request.id, retryCount: request.retryCount });
    const data = (request.data ?? {}) as Record<string, unknown>;
    const organizationId = data.organizationId;
    const id = data[idField];
    if (!isId(organizationId) || !isId(id)) {
      logs.taskDropped({ queue, taskId: request.id, reason: "invalid payload" });
      return;
    }
    await run({ organizationId, [idField]: id } as { organizationId: string } & Record<K, string>);
  };
}
