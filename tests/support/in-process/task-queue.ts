/**
 * Cloud Tasks as a test drives it: the product's tasks (every region's queues) wait in memory until the
 * test delivers them to the queues' own handlers (`TASK_QUEUES`), in this process. Delivery follows Cloud
 * Tasks where it matters to the product: a named task is accepted once (a second one of the same id is
 * dropped), a delivery that throws is retried after the queue's backoff up to its `maxAttempts`, and a
 * handler meets the `Request` fields it reads (data, id, retryCount). Time for retries is the queue's own:
 * a retry is due once the test has moved the queue's clock past its backoff (`advance`).
 */
import type { RegionId } from "@alpvault/contracts/regions";
import type { EnqueueOptions, QueueName, TaskTransport } from "../../../functions/src/lib/task-queue";
import { TASK_QUEUES, type TaskHandler } from "../../../functions/src/task-queues";

export interface QueuedTask {
  regionId: RegionId;
  queue: QueueName;
  id: string;
  data: object;
  /** Deliveries that failed so far. */
  retryCount: number;
  /** When it is due, on the queue's clock (ms). */
  dueAt: number;
}

export interface Delivery {
  task: QueuedTask;
  outcome: "done" | "retry" | "dropped";
  error?: unknown;
}

/** Deliveries one drain may make before it reports a loop (far above any flow of ours). */
const MAX_DELIVERIES = 2_000;

export class TestTaskQueue {
  private readonly waiting: QueuedTask[] = [];
  private readonly seenIds = new Set<string>();
  private readonly handlers = new Map<string, TaskHandler>();
  private readonly held = new Set<QueueName>();
  /** Every delivery so far, in order. */
  readonly deliveries: Delivery[] = [];
  private clockOffsetMs = 0;
  private sequence = 0;
  /** Deliver each task as it is enqueued (browser journeys), instead of when the test drains. */
  private asEnqueued = false;
  private delivering: Promise<unknown> = Promise.resolve();

  /** The transport the product's `enqueue` uses while this queue is installed. */
  readonly transport: TaskTransport = (regionId, queue, task, options: EnqueueOptions) => {
    const id = options.id ?? `task-${++this.sequence}`;
    const key = `${regionId}/${queue}/${id}`;
    if (this.seenIds.has(key)) return Promise.resolve(); // a named task Cloud Tasks has seen: dropped
    this.seenIds.add(key);
    // Tasks cross a network in production: the handler gets a copy, never the caller's object.
    const data = JSON.parse(JSON.stringify(task)) as object;
    this.waiting.push({
      regionId,
      queue,
      id,
      data,
      retryCount: 0,
      dueAt: this.now() + (options.delaySeconds ?? 0) * 1000,
    });
    if (this.asEnqueued) this.deliverSoon(0);
    return Promise.resolve();
  };

  /**
   * From now on, delivers each task as soon as it is due, one at a time, as Cloud Tasks would without its
   * dispatch delay (a browser journey waits for what the screens show); retries after their backoff.
   * `settled()` waits until nothing is being delivered.
   */
  deliverAsEnqueued(): void {
    this.asEnqueued = true;
    this.deliverSoon(0);
  }

  /** Resolves once the deliveries started so far (as enqueued) have ended. */
  async settled(): Promise<void> {
    for (;;) {
      const current = this.delivering;
      await current;
      if (current === this.delivering) return;
    }
  }

  private deliverSoon(afterMs: number): void {
    const deliver = () => {
      this.delivering = this.delivering.then(async () => {
        if (!this.asEnqueued) return;
        await this.drain();
        const next = this.waiting.filter((task) => !this.held.has(task.queue));
        if (next.length > 0) {
          this.deliverSoon(Math.max(0, Math.min(...next.map((task) => task.dueAt)) - this.now()));
        }
      });
    };
    if (afterMs <= 0) deliver();
    else setTimeout(deliver, afterMs).unref();
  }

  /** The queue's clock: real time plus what the test moved it on. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** Moves the queue's clock on (retries and delayed tasks become due). */
  advance(ms: number): void {
    this.clockOffsetMs += ms;
  }

  /** Tasks waiting (due or not), optionally of one queue. */
  pending(queue?: QueueName): QueuedTask[] {
    return this.waiting.filter((task) => queue === undefined || task.queue === queue);
  }

  /** Keeps a queue's tasks waiting through drains until `release` (a test looks at the work before it runs). */
  hold(queue: QueueName): void {
    this.held.add(queue);
  }

  release(queue: QueueName): void {
    this.held.delete(queue);
    if (this.asEnqueued) this.deliverSoon(0);
  }

  /**
   * Delivers due tasks, oldest first, one at a time, and those their handlers enqueue, until none is due
   * (of `queue` only, when named). Answers the deliveries made.
   */
  async drain(options: { queue?: QueueName; max?: number } = {}): Promise<Delivery[]> {
    const made: Delivery[] = [];
    const max = options.max ?? MAX_DELIVERIES;
    for (;;) {
      const next = this.nextDue(options.queue);
      if (!next) return made;
      if (made.length >= max) {
        const waiting = this.waiting.map((task) => `${task.queue}:${task.id}`).join(", ");
        throw new Error(`Tasks still due after ${max} deliveries (a loop?): ${waiting}`);
      }
      made.push(await this.deliver(next));
    }
  }

  /** Delivers one waiting task now, due or not (e.g. a duplicate delivery beside another). */
  async deliver(task: QueuedTask): Promise<Delivery> {
    const index = this.waiting.indexOf(task);
    if (index >= 0) this.waiting.splice(index, 1);
    const handler = this.handlerOf(task.regionId, task.queue);
    let delivery: Delivery;
    try {
      await handler({
        data: task.data,
        id: task.id,
        retryCount: task.retryCount,
        executionCount: task.retryCount,
        queueName: `${task.regionId}-${task.queue}`,
        scheduledTime: new Date(task.dueAt).toISOString(),
        headers: {},
      } as unknown as Parameters<TaskHandler>[0]);
      delivery = { task, outcome: "done" };
    } catch (error) {
      delivery = this.retryOrDrop(task, error);
    }
    this.deliveries.push(delivery);
    return delivery;
  }

  private retryOrDrop(task: QueuedTask, error: unknown): Delivery {
    const retry = TASK_QUEUES[task.queue].options("test").retryConfig ?? {};
    const attempts = task.retryCount + 1;
    const maxAttempts = typeof retry.maxAttempts === "number" ? retry.maxAttempts : 3;
    if (attempts >= maxAttempts) return { task, outcome: "dropped", error };
    const minimum = typeof retry.minBackoffSeconds === "number" ? retry.minBackoffSeconds : 1;
    const maximum = typeof retry.maxBackoffSeconds === "number" ? retry.maxBackoffSeconds : 3600;
    const backoffSeconds = Math.min(maximum, minimum * 2 ** task.retryCount);
    this.waiting.push({ ...task, retryCount: attempts, dueAt: this.now() + backoffSeconds * 1000 });
    return { task, outcome: "retry", error };
  }

  private nextDue(queue: QueueName | undefined): QueuedTask | undefined {
    const now = this.now();
    return this.waiting.find(
      (task) =>
        (queue === undefined || task.queue === queue) && !this.held.has(task.queue) && task.dueAt <= now,
    );
  }

  private handlerOf(regionId: RegionId, queue: QueueName): TaskHandler {
    const key = `${regionId}/${queue}`;
    let handler = this.handlers.get(key);
    if (!handler) {
      handler = TASK_QUEUES[queue].handler(regionId);
      this.handlers.set(key, handler);
    }
    return handler;
  }
}
