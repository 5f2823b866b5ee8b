/**
 * The quota caller's limits: a token bucket per user and API and one per project and API (sized at a
 * fraction of Google's per-minute limits, starting full as Google's do), and a slot count per user and API
 * for the requests in flight. See `quota-caller.ts`.
 */
import type { GoogleApi, GoogleRequest } from "./caller";
import type { QuotaLimits, QuotaModel } from "./costs";
import type { GoogleErrorClass } from "./errors";
import { Semaphore, TokenBucket, type Clock } from "./token-bucket";

export interface QuotaBucketsOptions {
  model: QuotaModel;
  /** Limits per API over the model's. */
  limits?: Partial<Record<GoogleApi, Partial<QuotaLimits>>>;
  /** Fraction of the per-user and per-project limits to aim at. */
  fraction: number;
  /** Requests of one user and API in flight at once (never above Google's limit). */
  concurrentPerUser: number;
  /** Length of one quota minute in ms. */
  minuteMs: number;
  clock: Clock;
}

export class QuotaBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly semaphores = new Map<string, Semaphore>();

  constructor(private readonly options: QuotaBucketsOptions) {}

  private limitsOf(api: GoogleApi): QuotaLimits {
    return { ...this.options.model.limits[api], ...this.options.limits?.[api] };
  }

  private bucket(key: string, perMinute: number): TokenBucket {
    let found = this.buckets.get(key);
    if (!found) {
      const { fraction, minuteMs, clock } = this.options;
      const capacity = perMinute * fraction;
      found = new TokenBucket({ capacity, refillPerSecond: capacity / (minuteMs / 1000), clock });
      this.buckets.set(key, found);
    }
    return found;
  }

  userBucket(api: GoogleApi, user: string): TokenBucket {
    return this.bucket(`${api}:user:${user.toLowerCase()}`, this.limitsOf(api).perUserPerMinute);
  }

  projectBucket(api: GoogleApi): TokenBucket {
    return this.bucket(`${api}:project`, this.limitsOf(api).perProjectPerMinute);
  }

  /** The slots of one user and API. */
  semaphore(api: GoogleApi, user: string): Semaphore {
    const key = `${api}:${user.toLowerCase()}`;
    let found = this.semaphores.get(key);
    if (!found) {
      const limit = this.limitsOf(api).concurrentPerUser;
      found = new Semaphore(Math.max(1, Math.min(this.options.concurrentPerUser, limit)));
      this.semaphores.set(key, found);
    }
    return found;
  }

  /**
   * Google says a limit was hit: empty the bucket it names so every waiting request slows down. A 429 and
   * Drive's `userRateLimitExceeded` are the user's limit; a 403 `rateLimitExceeded` is the project's unless
   * its message names the per-user limit (Gmail answers its per-user limit in that form too: "Queries per
   * minute per user").
   */
  drainFor(request: GoogleRequest, classification: GoogleErrorClass): void {
    if (!classification.notExecuted || classification.status === 0) return;
    const projectLimit =
      classification.status === 403 &&
      classification.googleReason !== "userRateLimitExceeded" &&
      classification.perUserLimit !== true;
    if (projectLimit) this.projectBucket(request.api).drain();
    else this.userBucket(request.api, request.user).drain();
  }
}
