/**
 * The product run in the test's own process (jest projects `api` and `browser`): its task queues are the
 * test's (`TestTaskQueue`), so background work runs when the test says so, and its APIs are served from
 * this process. Installed by `setup.ts` for each test file; helpers ask for it through `harness()`.
 */
import { useTaskTransport } from "../../../functions/src/lib/task-queue";
import { TestTaskQueue } from "./task-queue";

export interface Harness {
  queue: TestTaskQueue;
}

let installed: Harness | undefined;

/** Puts a fresh test queue in place of Cloud Tasks for this file. */
export function installHarness(): Harness {
  const queue = new TestTaskQueue();
  useTaskTransport(queue.transport);
  installed = { queue };
  return installed;
}

/** Whether this file runs the product in its own process (else: through the local stack's emulators). */
export function runsInProcess(): boolean {
  return installed !== undefined;
}

/** This file's harness; only files that run the product in their own process have one. */
export function harness(): Harness {
  if (!installed) {
    throw new Error(
      "This helper drives background work of the product run in the test's own process: use it from a file of the jest projects 'api' or 'browser'",
    );
  }
  return installed;
}
