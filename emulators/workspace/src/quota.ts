/**
 * Google's per-minute quotas for the APIs we serve, per user and per project, with per-method unit costs,
 * a per-user concurrency limit, daily totals and call statistics. Two models: the one Google enforces
 * since May 2026 (unit costs on Drive too) and the older one. A time scale speeds the quota clock up
 * for tests and benchmarks (60 means a quota minute passes in one real second).
 */
import { GoogleApiError } from "./http";

export type ApiName = "gmail" | "drive" | "directory" | "marketplace";
export type QuotaModelName = "2026" | "legacy";

interface ApiQuota {
  perUserPerMinute: number;
  perProjectPerMinute: number;
  /** Units per method id; methods not listed cost `defaultCost`. */
  costs: Record<string, number>;
  defaultCost: number;
  /** Requests of one user in flight at once before Google answers 429. */
  concurrentPerUser: number;
}

const GMAIL_2026_COSTS: Record<string, number> = {
  "gmail.users.getProfile": 1,
  "gmail.users.labels.list": 1,
  "gmail.users.labels.get": 1,
  "gmail.users.labels.create": 5,
  "gmail.users.labels.update": 5,
  "gmail.users.labels.patch": 5,
  "gmail.users.labels.delete": 5,
  "gmail.users.messages.list": 5,
  "gmail.users.messages.get": 20,
  "gmail.users.messages.attachments.get": 20,
  "gmail.users.messages.import": 25,
  "gmail.users.messages.insert": 25,
  "gmail.users.messages.modify": 5,
  "gmail.users.messages.trash": 5,
  "gmail.users.messages.untrash": 5,
  "gmail.users.messages.delete": 10,
  "gmail.users.history.list": 2,
};

/** Drive's 2026 unit classes: read 5, list 100, download 200, edit 50. */
const DRIVE_2026_COSTS: Record<string, number> = {
  "drive.files.get": 5,
  "drive.files.download": 200,
  "drive.files.export": 200,
  "drive.files.exportLink": 200,
  "drive.files.list": 100,
  "drive.changes.list": 100,
  "drive.changes.getStartPageToken": 5,
  "drive.drives.list": 100,
  "drive.drives.get": 5,
  "drive.permissions.list": 5,
  "drive.permissions.get": 5,
  "drive.permissions.create": 50,
  "drive.revisions.list": 5,
  "drive.revisions.get": 5,
  "drive.revisions.download": 200,
  "drive.files.create": 50,
  "drive.files.update": 50,
  "drive.files.delete": 50,
  "drive.about.get": 5,
};

const GMAIL_LEGACY_COSTS: Record<string, number> = {
  ...GMAIL_2026_COSTS,
  "gmail.users.messages.get": 5,
  "gmail.users.messages.attachments.get": 5,
};

/** Directory and Marketplace limits are the same in both models: one call, one unit. */
const DIRECTORY_QUOTA: ApiQuota = {
  perUserPerMinute: 2_400,
  perProjectPerMinute: 150_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
};
const MARKETPLACE_QUOTA: ApiQuota = {
  perUserPerMinute: 1_000,
  perProjectPerMinute: 100_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
};

export const QUOTA_MODELS: Record<QuotaModelName, Record<ApiName, ApiQuota>> = {
  "2026": {
    gmail: {
      perUserPerMinute: 6_000,
      perProjectPerMinute: 1_200_000,
      costs: GMAIL_2026_COSTS,
      defaultCost: 5,
      concurrentPerUser: 10,
    },
    drive: {
      perUserPerMinute: 325_000,
      perProjectPerMinute: 1_000_000,
      costs: DRIVE_2026_COSTS,
      defaultCost: 5,
      concurrentPerUser: 10,
    },
    directory: DIRECTORY_QUOTA,
    marketplace: MARKETPLACE_QUOTA,
  },
  legacy: {
    gmail: {
      perUserPerMinute: 15_000,
      perProjectPerMinute: 1_200_000,
      costs: GMAIL_LEGACY_COSTS,
      defaultCost: 5,
      concurrentPerUser: 10,
    },
    drive: {
      perUserPerMinute: 12_000,
      perProjectPerMinute: 12_000,
      costs: {},
      defaultCost: 1,
      concurrentPerUser: 10,
    },
    directory: DIRECTORY_QUOTA,
    marketplace: MARKETPLACE_QUOTA,
  },
};

export interface QuotaSettings {
  /** false: nothing is refused (units are still counted). */
  enabled: boolean;
  model: QuotaModelName;
  /** How much faster than real time the quota clock runs. */
  timeScale: number;
}

export interface MethodStats {
  calls: number;
  units: number;
  /** Calls refused by a quota or concurrency limit (not charged). */
  rejected: number;
}

export interface QuotaStats {
  settings: QuotaSettings;
  /** user (email, or "project" for calls without a user) → method id → figures. */
  users: Record<string, Record<string, MethodStats>>;
  /** api → units charged for the whole project. */
  project: Record<string, { calls: number; units: number; rejected: number }>;
  /** UTC day → user → api → units: the daily totals Google's console shows. */
  daily: Record<string, Record<string, Record<string, number>>>;
}

class Bucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }

  private refill(now: number, scale: number): void {
    const elapsedMinutes = ((now - this.updatedAt) * scale) / 60_000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsedMinutes * this.capacity);
    this.updatedAt = now;
  }

  /** Quota-clock milliseconds until `cost` is available; 0 when it is now. */
  waitFor(cost: number, now: number, scale: number): number {
    this.refill(now, scale);
    if (this.tokens >= cost) return 0;
    return Math.ceil(((cost - this.tokens) / this.capacity) * 60_000);
  }

  take(cost: number): void {
    this.tokens -= cost;
  }
}

export function apiOf(methodId: string): ApiName {
  const prefix = methodId.split(".")[0];
  if (prefix === "gmail" || prefix === "drive" || prefix === "marketplace") return prefix;
  return "directory";
}

export class QuotaTracker {
  settings: QuotaSettings;
  private buckets = new Map<string, Bucket>();
  private inFlight = new Map<string, number>();
  private stats: Omit<QuotaStats, "settings"> = { users: {}, project: {}, daily: {} };

  constructor(
    settings: Partial<QuotaSettings> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.settings = { enabled: true, model: "2026", timeScale: 1, ...settings };
  }

  configure(change: Partial<QuotaSettings>): void {
    if (change.timeScale !== undefined && !(change.timeScale > 0)) throw new Error("timeScale must be > 0");
    const modelChanged = change.model !== undefined && change.model !== this.settings.model;
    this.settings = { ...this.settings, ...change };
    if (modelChanged) this.buckets.clear();
  }

  cost(methodId: string): number {
    const quota = QUOTA_MODELS[this.settings.model][apiOf(methodId)];
    return quota.costs[methodId] ?? quota.defaultCost;
  }

  private bucket(key: string, capacity: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new Bucket(capacity, this.now());
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /**
   * Charges one call, or throws the error Google answers when a limit is hit. Returns a release function
   * to call when the response is done (concurrency accounting).
   */
  begin(methodId: string, user: string | undefined): () => void {
    const api = apiOf(methodId);
    const quota = QUOTA_MODELS[this.settings.model][api];
    const who = user ?? "project";
    const cost = this.cost(methodId);
    const flightKey = `${api}:${who}`;
    try {
      if (this.settings.enabled) {
        if (user && (this.inFlight.get(flightKey) ?? 0) >= quota.concurrentPerUser) {
          throw new GoogleApiError(429, "Too many concurrent requests for user.", "rateLimitExceeded", {
            domain: "usageLimits",
          });
        }
        const now = this.now();
        const scale = this.settings.timeScale;
        const userBucket = user ? this.bucket(`${api}:user:${user}`, quota.perUserPerMinute) : undefined;
        const projectBucket = this.bucket(`${api}:project`, quota.perProjectPerMinute);
        const userWait = userBucket?.waitFor(cost, now, scale) ?? 0;
        if (userWait > 0) throw userLimitError(api, new Date(now + userWait / scale));
        if (projectBucket.waitFor(cost, now, scale) > 0) throw projectLimitError(api);
        userBucket?.take(cost);
        projectBucket.take(cost);
      }
    } catch (error) {
      this.count(methodId, who, api, 0, true);
      throw error;
    }
    this.count(methodId, who, api, cost, false);
    this.inFlight.set(flightKey, (this.inFlight.get(flightKey) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(flightKey) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(flightKey);
      else this.inFlight.set(flightKey, left);
    };
  }

  private count(methodId: string, who: string, api: ApiName, units: number, rejected: boolean): void {
    const perUser = (this.stats.users[who] ??= {});
    const method = (perUser[methodId] ??= { calls: 0, units: 0, rejected: 0 });
    const project = (this.stats.project[api] ??= { calls: 0, units: 0, rejected: 0 });
    if (rejected) {
      method.rejected += 1;
      project.rejected += 1;
      return;
    }
    method.calls += 1;
    method.units += units;
    project.calls += 1;
    project.units += units;
    const day = new Date(this.now()).toISOString().slice(0, 10);
    const daily = ((this.stats.daily[day] ??= {})[who] ??= {});
    daily[api] = (daily[api] ?? 0) + units;
  }

  report(): QuotaStats {
    return { settings: { ...this.settings }, ...structuredClone(this.stats) };
  }

  /** Clears statistics and refills every bucket. */
  reset(): void {
    this.stats = { users: {}, project: {}, daily: {} };
    this.buckets.clear();
  }
}

function userLimitError(api: ApiName, retryAt: Date): GoogleApiError {
  if (api === "gmail") {
    return new GoogleApiError(
      429,
      `User-rate limit exceeded.  Retry after ${retryAt.toISOString()}`,
      "rateLimitExceeded",
      { domain: "usageLimits" },
    );
  }
  return new GoogleApiError(403, "User rate limit exceeded.", "userRateLimitExceeded", {
    domain: "usageLimits",
    status: "PERMISSION_DENIED",
  });
}

function projectLimitError(api: ApiName): GoogleApiError {
  const service = api === "directory" ? "admin.googleapis.com" : `${api}.googleapis.com`;
  return new GoogleApiError(
    403,
    `Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service '${service}' for consumer 'project_number:104857600'.`,
    "rateLimitExceeded",
    { domain: "usageLimits", status: "PERMISSION_DENIED" },
  );
}
