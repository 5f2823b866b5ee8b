/**
 * Background work of the product, run when the test says so (files that run the product in their own
 * process): the tasks its API and workers enqueued, delivered to their handlers; the scheduled dispatcher's
 * jobs for one organisation at a time the test chooses.
 */
import type { QueueName } from "../../functions/src/lib/task-queue";
import { dispatchOrganization, type DispatchCounts } from "../../functions/src/jobs/dispatcher";
import { getRouting, withAccount } from "../../functions/src/organizations/service";
import { harness } from "./in-process/harness";
import type { Delivery, QueuedTask } from "./in-process/task-queue";

/**
 * Delivers every task that is due (of `queue` only, when named), and what those enqueue, until none is due;
 * in a file whose tasks are delivered as they are enqueued (browser), first waits for the deliveries in
 * flight. Answers the deliveries it made itself.
 */
export async function drainTasks(queue?: QueueName): Promise<Delivery[]> {
  const { queue: tasks } = harness();
  await tasks.settled();
  return tasks.drain(queue ? { queue } : {});
}

/** Tasks waiting to be delivered. */
export function pendingTasks(queue?: QueueName): QueuedTask[] {
  return harness().queue.pending(queue);
}

/** Keeps a queue's tasks waiting until `releaseTasks` (to look at work before it runs). */
export function holdTasks(queue: QueueName): void {
  harness().queue.hold(queue);
}

export function releaseTasks(queue: QueueName): void {
  harness().queue.release(queue);
}

/** Moves the task queues' clock on: retries after their backoff become due. */
export function advanceTaskClock(ms: number): void {
  harness().queue.advance(ms);
}

/**
 * Runs the scheduled dispatcher's jobs for one organisation at `at` (now by default), as its region's
 * scheduled run would; the tasks they enqueue wait for `drainTasks`.
 */
export async function dispatch(organizationId: string, at: Date = new Date()): Promise<DispatchCounts> {
  harness();
  const routing = await getRouting(organizationId);
  if (!routing) throw new Error(`No organisation ${organizationId} to dispatch`);
  return dispatchOrganization(await withAccount(routing), at);
}
