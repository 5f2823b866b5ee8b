/**
 * The production `GoogleCaller`: every engine call to Google goes through it.
 *
 * - Quota: a token bucket per user and API and one per project and API, sized at `targetFraction` (0.97)
 *   of Google's per-minute limits and charged with Google's unit cost of the method (`costs.ts`). Buckets
 *   start full, as Google's do. The project bucket is per process: it keeps one worker under the project
 *   limit, not all of them together (workers' task-queue rate limits do that).
 * - Concurrency: at most `concurrentPerUser` requests of one user and API in flight. A call whose result
 *   has a stream as `data` (`responseType: "stream"`) keeps its slot until the stream ends: consume or
 *   cancel it. (gaxios on fetch answers a web stream; the caller hands back one that tells it when it is
 *   done.) A bare fetch `Response` is released at once.
 * - Retries: what `classifyGoogleError` calls "retry" (429, 403 rate limits, 408/5xx, dropped
 *   connections), with truncated exponential backoff and full jitter (`backoffDelay`), never shorter than
 *   Google's `Retry-After`. A request that is not idempotent is repeated only when Google says it did not
 *   run it (429, 403 rate limits, connection refused), never after a 5xx or a reset. When Google answers a
 *   rate limit, the bucket it names is emptied so the other requests of that user (or project) slow down.
 * - Errors: a call that fails for good throws a `GoogleCallError` with its classification (retries run
 *   out: "fatal"); per-item errors are for the engine to record, the run's fatal one to fail the run.
 *   An error that is neither Google's nor the network's (a bug in `send`) is rethrown as it is.
 * - Statistics: calls, attempts, retries, failures, units and the time spent waiting for quota per method
 *   and per user, for run records, benchmarks and the runner's concurrency (`stats()`). Units are counted
 *   for every attempt sent.
 *
 * The official clients must not retry themselves (they would multiply attempts and retry POSTs after a
 * 5xx): build them with `googleClientOptions()`, see `client-options.ts`.
 */
import {
  emptyCounts,
  type CallCounts,
  type GoogleApi,
  type GoogleCaller,
  type GoogleRequest,
} from "./caller";
import { QUOTA_MODELS, modelCost, type QuotaLimits, type QuotaModel } from "./costs";
import { GoogleCallError, classifyGoogleError, googleErrorFacts, type GoogleErrorClass } from "./errors";
import { SYSTEM_CLOCK, Semaphore, TokenBucket, type Clock } from "./token-bucket";

export interface RetryPolicy {
  /** Attempts per call, the first one included (default 8). */
  maxAttempts: number;
  /** The first retry waits up to this long (default 1 s); each further one doubles it... */
  baseDelayMs: number;
  /** ...up to this (default 64 s). */
  maxDelayMs: number;
}

/** The longest `Retry-After` the caller waits for (longer asks wait this long, then retry). */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 1_000, maxDelayMs: 64_000 };

/**
 * Full jitter: a uniform wait in [0, min(maxDelay, baseDelay × 2^(retry−1))] for the `retry`-th retry
 * (1-based). `random` returns a number in [0, 1).
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** Calls, attempts, retries, failures and units of one method (or user, or run). */
export type MethodStats = CallCounts;

export interface CallerStats {
  total: MethodStats;
  /** Method id → figures. */
  methods: Record<string, MethodStats>;
  /** User → method id → figures. */
  users: Record<string, Record<string, MethodStats>>;
}

export interface RetryEvent {
  method: string;
  user: string;
  /** The retry about to be made (1 = first retry). */
  retry: number;
  delayMs: number;
  status: number;
  googleReason?: string;
}

export interface QuotaCallerOptions {
  /** The project's quota model (default: the 2026 one): its limits and unit costs. */
  model?: QuotaModel;
  /** Limits per API over the model's, e.g. a raised project quota. */
  limits?: Partial<Record<GoogleApi, Partial<QuotaLimits>>>;
  /** Fraction of the per-user and per-project limits to aim at (default 0.97). */
  targetFraction?: number;
  /** Requests of one user and API in flight at once (default 8, never above Google's limit). */
  concurrentPerUser?: number;
  /**
   * Length of one quota minute in ms (default 60,000). Against the Workspace emulator with a time scale,
   * 60,000 / timeScale.
   */
  minuteMs?: number;
  /** Unit costs that differ from Google's (`costs.ts`). */
  costs?: Record<string, number>;
  retry?: Partial<RetryPolicy>;
  clock?: Clock;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Told before every retry (for logs; no request content in it). */
  onRetry?: (event: RetryEvent) => void;
}

export interface QuotaCaller extends GoogleCaller {
  /** Units and calls so far. */
  stats(): CallerStats;
  resetStats(): void;
  /** The unit cost the caller charges for a method. */
  cost(method: string, api?: GoogleApi): number;
}

function isStream(value: unknown): value is NodeJS.ReadableStream & {
  destroyed?: boolean;
  readableEnded?: boolean;
} {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { pipe?: unknown }).pipe === "function" &&
    typeof (value as { once?: unknown }).once === "function"
  );
}

/** A web stream that reads `stream` and calls `done` once it ends, fails or is cancelled. */
function watchWebStream<R>(stream: ReadableStream<R>, done: () => void): ReadableStream<R> {
  const reader = stream.getReader();
  return new ReadableStream<R>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          done();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/**
 * Gives the slot back now, or when the response's stream (`responseType: "stream"`: a Node stream, or a
 * web stream with gaxios on fetch, then replaced by one that tells when it is done) is done.
 */
function releaseAfter<T>(result: T, release: () => void): T {
  const response = typeof result === "object" && result !== null ? (result as { data?: unknown }) : undefined;
  const data = response?.data;
  if (response && data instanceof ReadableStream && !data.locked) {
    response.data = watchWebStream(data as ReadableStream<unknown>, release);
    return result;
  }
  if (!isStream(data) || data.destroyed || data.readableEnded) {
    release();
    return result;
  }
  data.once("close", release);
  data.once("end", release);
  data.once("error", release);
  return result;
}

/** `promise`, or the signal's reason as soon as it is aborted. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error as Error);
      },
    );
  });
}

export function quotaAwareCaller(options: QuotaCallerOptions = {}): QuotaCaller {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const random = options.random ?? Math.random;
  const fraction = options.targetFraction ?? 0.97;
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError("targetFraction must be in (0, 1]");
  const minuteMs = options.minuteMs ?? 60_000;
  if (!(minuteMs > 0)) throw new RangeError("minuteMs must be > 0");
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  if (!(policy.maxAttempts >= 1)) throw new RangeError("retry.maxAttempts must be >= 1");

  const model = options.model ?? QUOTA_MODELS["2026"];
  const limitsOf = (api: GoogleApi): QuotaLimits => ({
    ...model.limits[api],
    ...options.limits?.[api],
  });
  const buckets = new Map<string, TokenBucket>();
  const semaphores = new Map<string, Semaphore>();
  let statistics: CallerStats = { total: emptyCounts(), methods: {}, users: {} };

  const bucket = (key: string, perMinute: number): TokenBucket => {
    let found = buckets.get(key);
    if (!found) {
      const capacity = perMinute * fraction;
      found = new TokenBucket({ capacity, refillPerSecond: capacity / (minuteMs / 1000), clock });
      buckets.set(key, found);
    }
    return found;
  };
  const userBucket = (api: GoogleApi, user: string) =>
    bucket(`${api}:user:${user.toLowerCase()}`, limitsOf(api).perUserPerMinute);
  const projectBucket = (api: GoogleApi) => bucket(`${api}:project`, limitsOf(api).perProjectPerMinute);
  const semaphore = (api: GoogleApi, user: string): Semaphore => {
    const key = `${api}:${user.toLowerCase()}`;
    let found = semaphores.get(key);
    if (!found) {
      const limit = limitsOf(api).concurrentPerUser;
      found = new Semaphore(Math.max(1, Math.min(options.concurrentPerUser ?? 8, limit)));
      semaphores.set(key, found);
    }
    return found;
  };
  const cost = (method: string, api?: GoogleApi): number =>
    options.costs?.[method] ?? modelCost(model, method, api);

  const count = (request: GoogleRequest, change: (stats: MethodStats) => void): void => {
    const perUser = (statistics.users[request.user] ??= {});
    change((perUser[request.method] ??= emptyCounts()));
    change((statistics.methods[request.method] ??= emptyCounts()));
    change(statistics.total);
    for (const meter of request.meters ?? []) change(meter);
  };

  /**
   * Google says a limit was hit: empty the bucket it names so every waiting request slows down. A 429 and
   * Drive's `userRateLimitExceeded` are the user's limit; a 403 `rateLimitExceeded` is the project's unless
   * its message names the per-user limit (Gmail answers its per-user limit in that form too: "Queries per
   * minute per user").
   */
  const drainFor = (request: GoogleRequest, classification: GoogleErrorClass): void => {
    if (!classification.notExecuted || classification.status === 0) return;
    const projectLimit =
      classification.status === 403 &&
      classification.googleReason !== "userRateLimitExceeded" &&
      classification.perUserLimit !== true;
    if (projectLimit) projectBucket(request.api).drain();
    else userBucket(request.api, request.user).drain();
  };

  async function call<T>(request: GoogleRequest, send: () => Promise<T>): Promise<T> {
    const units = cost(request.method, request.api);
    count(request, (stats) => (stats.calls += 1));
    for (let attempt = 1; ; attempt += 1) {
      request.signal?.throwIfAborted();
      // The slot first, the units right before sending: units taken long before the request reaches
      // Google would let our bucket run ahead of Google's (whose refill is lost while it sits full).
      const release = await semaphore(request.api, request.user).acquire();
      const waitFrom = clock.now();
      try {
        await userBucket(request.api, request.user).take(units);
        await projectBucket(request.api).take(units);
        request.signal?.throwIfAborted();
      } catch (error) {
        release();
        throw error;
      }
      const waitedMs = clock.now() - waitFrom;
      count(request, (stats) => {
        stats.attempts += 1;
        stats.units += units;
        stats.quotaWaitMs += waitedMs;
      });
      let error: unknown;
      try {
        return releaseAfter(await send(), release);
      } catch (caught) {
        release();
        error = caught;
      }
      const classification = classifyGoogleError(error);
      // Not Google's answer nor the network's (a bug in `send`): rethrown as it is.
      if (classification.status === 0 && classification.reason === "unknown-error") {
        count(request, (stats) => (stats.failures += 1));
        throw error;
      }
      const retryable =
        classification.kind === "retry" && (request.idempotent || classification.notExecuted === true);
      if (!retryable || attempt >= policy.maxAttempts) {
        count(request, (stats) => (stats.failures += 1));
        const final: GoogleErrorClass =
          classification.kind === "retry"
            ? { ...classification, kind: "fatal", reason: classification.reason ?? "google-api-error" }
            : classification;
        throw new GoogleCallError(request.method, attempt, final, error);
      }
      drainFor(request, classification);
      const retryAfter = Math.min(googleErrorFacts(error).retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
      const delayMs = Math.max(backoffDelay(attempt, policy, random), retryAfter);
      count(request, (stats) => {
        stats.retries += 1;
        // Google said a limit was hit: the backoff is a wait for quota too.
        if (classification.notExecuted && classification.status !== 0) stats.quotaWaitMs += delayMs;
      });
      options.onRetry?.({
        method: request.method,
        user: request.user,
        retry: attempt,
        delayMs,
        status: classification.status,
        googleReason: classification.googleReason,
      });
      await abortable(clock.sleep(delayMs), request.signal);
    }
  }

  return {
    call,
    cost,
    stats: () => structuredClone(statistics),
    resetStats: () => {
      statistics = { total: emptyCounts(), methods: {}, users: {} };
    },
  };
}
