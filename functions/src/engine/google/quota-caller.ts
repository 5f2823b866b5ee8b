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
import { QuotaBuckets } from "./quota-buckets";
import { abortable, releaseAfter } from "./response-release";
import { SYSTEM_CLOCK, type Clock } from "./token-bucket";

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

/** What one call's attempts are made with. */
interface Attempts {
  quota: QuotaBuckets;
  clock: Clock;
  policy: RetryPolicy;
  random: () => number;
  /** Adds to the request's figures (its user's and method's, the total, and its meters). */
  count(request: GoogleRequest, change: (stats: MethodStats) => void): void;
  onRetry?: (event: RetryEvent) => void;
}

/**
 * Admits one attempt: the slot first, the units right before sending (units taken long before the
 * request reaches Google would let our bucket run ahead of Google's, whose refill is lost while it sits
 * full). Returns the slot's release.
 */
async function admit(attempts: Attempts, request: GoogleRequest, units: number): Promise<() => void> {
  const { quota, clock } = attempts;
  request.signal?.throwIfAborted();
  const release = await quota.semaphore(request.api, request.user).acquire();
  const waitFrom = clock.now();
  try {
    await quota.userBucket(request.api, request.user).take(units);
    await quota.projectBucket(request.api).take(units);
    request.signal?.throwIfAborted();
  } catch (error) {
    release();
    throw error;
  }
  const waitedMs = clock.now() - waitFrom;
  attempts.count(request, (stats) => {
    stats.attempts += 1;
    stats.units += units;
    stats.quotaWaitMs += waitedMs;
  });
  return release;
}

/**
 * After the `attempt`-th attempt failed with `error`: the wait before the next attempt, or the error to
 * throw (a `GoogleCallError`, or `error` itself when it is neither Google's nor the network's).
 */
function retryDelay(attempts: Attempts, request: GoogleRequest, attempt: number, error: unknown): number {
  const { policy, count } = attempts;
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
  attempts.quota.drainFor(request, classification);
  const retryAfter = Math.min(googleErrorFacts(error).retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
  const delayMs = Math.max(backoffDelay(attempt, policy, attempts.random), retryAfter);
  count(request, (stats) => {
    stats.retries += 1;
    // Google said a limit was hit: the backoff is a wait for quota too.
    if (classification.notExecuted && classification.status !== 0) stats.quotaWaitMs += delayMs;
  });
  attempts.onRetry?.({
    method: request.method,
    user: request.user,
    retry: attempt,
    delayMs,
    status: classification.status,
    googleReason: classification.googleReason,
  });
  return delayMs;
}

export function quotaAwareCaller(options: QuotaCallerOptions = {}): QuotaCaller {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const fraction = options.targetFraction ?? 0.97;
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError("targetFraction must be in (0, 1]");
  const minuteMs = options.minuteMs ?? 60_000;
  if (!(minuteMs > 0)) throw new RangeError("minuteMs must be > 0");
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  if (!(policy.maxAttempts >= 1)) throw new RangeError("retry.maxAttempts must be >= 1");

  const model = options.model ?? QUOTA_MODELS["2026"];
  const quota = new QuotaBuckets({
    model,
    ...(options.limits ? { limits: options.limits } : {}),
    fraction,
    concurrentPerUser: options.concurrentPerUser ?? 8,
    minuteMs,
    clock,
  });
  let statistics: CallerStats = { total: emptyCounts(), methods: {}, users: {} };
  const cost = (method: string, api?: GoogleApi): number =>
    options.costs?.[method] ?? modelCost(model, method, api);
  const count = (request: GoogleRequest, change: (stats: MethodStats) => void): void => {
    const perUser = (statistics.users[request.user] ??= {});
    change((perUser[request.method] ??= emptyCounts()));
    change((statistics.methods[request.method] ??= emptyCounts()));
    change(statistics.total);
    for (const meter of request.meters ?? []) change(meter);
  };
  const attempts: Attempts = {
    quota,
    clock,
    policy,
    random: options.random ?? Math.random,
    count,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };

  async function call<T>(request: GoogleRequest, send: () => Promise<T>): Promise<T> {
    const units = cost(request.method, request.api);
    count(request, (stats) => (stats.calls += 1));
    for (let attempt = 1; ; attempt += 1) {
      const release = await admit(attempts, request, units);
      let error: unknown;
      try {
        return releaseAfter(await send(), release);
      } catch (caught) {
        release();
        error = caught;
      }
      const delayMs = retryDelay(attempts, request, attempt, error);
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

/**
 * A caller that passes every request to `inner` with `usage` (and its API's `usageOf`) as meters, so one
 * run knows what it spent while sharing the process's buckets. Counts are filled by a quota-aware `inner`.
 */
export function meteredCaller(inner: GoogleCaller): GoogleCaller & {
  readonly usage: CallCounts;
  /** What the run spent of one API (e.g. its Gmail units, for the project's daily budget). */
  usageOf(api: GoogleApi): CallCounts;
} {
  const usage = emptyCounts();
  const byApi = new Map<GoogleApi, CallCounts>();
  const usageOf = (api: GoogleApi): CallCounts => {
    let found = byApi.get(api);
    if (!found) byApi.set(api, (found = emptyCounts()));
    return found;
  };
  return {
    usage,
    usageOf,
    call: (request, send) =>
      inner.call({ ...request, meters: [...(request.meters ?? []), usage, usageOf(request.api)] }, send),
  };
}
