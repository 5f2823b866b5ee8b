/**
 * Google's quotas for the APIs we serve, per Google Cloud project: per-minute limits per user and per
 * project with per-method unit costs, a per-user concurrency limit, the daily thresholds (Gmail and Drive
 * units per project, Drive egress per project, Drive uploads per user) and call statistics.
 *
 * Two models: the one Google enforces for projects created since May 2026 (unit costs on Drive too, daily
 * thresholds) and the older one that projects active before keep. Each project has its model (the
 * emulator-wide `model` is the default for projects without their own).
 *
 * The quota clock runs `timeScale` times faster than real time (60: a quota minute passes in one real
 * second, 1,440: a quota day in one real minute). Daily thresholds reset when the quota day ends at
 * midnight Pacific time on that clock, as Google's daily quotas do.
 */
import { GoogleApiError } from "./http";

export type ApiName = "gmail" | "drive" | "directory" | "marketplace";
export type QuotaModelName = "2026" | "legacy";
export const QUOTA_MODEL_NAMES: readonly QuotaModelName[] = ["2026", "legacy"];

/** The daily thresholds of one API for one project (absent: none). */
export interface DailyLimits {
  /** Quota units the project may use per quota day. */
  unitsPerProject?: number;
  /** Bytes the project may egress (download) per quota day. */
  egressBytesPerProject?: number;
}

interface ApiQuota {
  perUserPerMinute: number;
  perProjectPerMinute: number;
  /** Units per method id; methods not listed cost `defaultCost`. */
  costs: Record<string, number>;
  defaultCost: number;
  /** Requests of one user in flight at once before Google answers 429. */
  concurrentPerUser: number;
  daily: DailyLimits;
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

/** Gmail's daily threshold per project in the 2026 model: 80,000,000 quota units. */
export const GMAIL_UNITS_PER_PROJECT_PER_DAY = 80_000_000;
/** Drive's daily threshold per project in the 2026 model: 400,000,000 quota units. */
export const DRIVE_UNITS_PER_PROJECT_PER_DAY = 400_000_000;
/** Drive's daily egress per project in the 2026 model: 1 TB (decimal, the stricter reading). */
export const DRIVE_EGRESS_BYTES_PER_PROJECT_PER_DAY = 1_000_000_000_000;
/** What one user may upload to Drive (My Drive and shared drives, copies included) per day: 750 GB. */
export const DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY = 750_000_000_000;

/** Directory and Marketplace limits are the same in both models: one call, one unit. */
const DIRECTORY_QUOTA: ApiQuota = {
  perUserPerMinute: 2_400,
  perProjectPerMinute: 150_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
  daily: {},
};
const MARKETPLACE_QUOTA: ApiQuota = {
  perUserPerMinute: 1_000,
  perProjectPerMinute: 100_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
  daily: {},
};

export const QUOTA_MODELS: Record<QuotaModelName, Record<ApiName, ApiQuota>> = {
  "2026": {
    gmail: {
      perUserPerMinute: 6_000,
      perProjectPerMinute: 1_200_000,
      costs: GMAIL_2026_COSTS,
      defaultCost: 5,
      concurrentPerUser: 10,
      daily: { unitsPerProject: GMAIL_UNITS_PER_PROJECT_PER_DAY },
    },
    drive: {
      perUserPerMinute: 325_000,
      perProjectPerMinute: 1_000_000,
      costs: DRIVE_2026_COSTS,
      defaultCost: 5,
      concurrentPerUser: 10,
      daily: {
        unitsPerProject: DRIVE_UNITS_PER_PROJECT_PER_DAY,
        egressBytesPerProject: DRIVE_EGRESS_BYTES_PER_PROJECT_PER_DAY,
      },
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
      daily: {},
    },
    drive: {
      perUserPerMinute: 12_000,
      perProjectPerMinute: 12_000,
      costs: {},
      defaultCost: 1,
      concurrentPerUser: 10,
      daily: {},
    },
    directory: DIRECTORY_QUOTA,
    marketplace: MARKETPLACE_QUOTA,
  },
};

/**
 * One project's own quota settings. A project's owner can lower a daily threshold (a quota override in the
 * Cloud console), never raise it above the model's.
 */
export interface ProjectQuotaSettings {
  model?: QuotaModelName;
  /** Lower daily unit thresholds, per API. */
  dailyUnits?: Partial<Record<"gmail" | "drive", number>>;
  /** A lower daily Drive egress threshold in bytes. */
  driveEgressBytesPerDay?: number;
}

/**
 * How Gmail answers a user over their per-minute limit: Google answers both 429 "User-rate limit exceeded"
 * and 403 rateLimitExceeded "Queries per minute per user"; `alternate` (the default) answers them in turn.
 */
export type GmailUserLimitAnswer = "alternate" | "429" | "403";

export interface QuotaSettings {
  /** false: nothing is refused (units and bytes are still counted). */
  enabled: boolean;
  /** The model of projects without their own. */
  model: QuotaModelName;
  /** How much faster than real time the quota clock runs. */
  timeScale: number;
  /** Per Google Cloud project (project id): its model and lowered thresholds. */
  projects: Record<string, ProjectQuotaSettings>;
  gmailUserLimit: GmailUserLimitAnswer;
}

/** A change to the settings; a project set to `null` goes back to the default. */
export type QuotaSettingsChange = Partial<Omit<QuotaSettings, "projects">> & {
  projects?: Record<string, ProjectQuotaSettings | null>;
};

export interface MethodStats {
  calls: number;
  units: number;
  /** Calls refused by a quota or concurrency limit (not charged). */
  rejected: number;
}

export interface ProjectDay {
  /** api → units charged that quota day. */
  units: Partial<Record<ApiName, number>>;
  driveEgressBytes: number;
}

export interface QuotaStats {
  settings: QuotaSettings;
  /** The current quota day (Pacific time, on the quota clock). */
  quotaDay: string;
  /** user (email, or "project" for calls without a user) → method id → figures. */
  users: Record<string, Record<string, MethodStats>>;
  /** api → units charged for the whole emulator. */
  project: Record<string, { calls: number; units: number; rejected: number }>;
  /** quota day → user → api → units: the daily totals Google's console shows. */
  daily: Record<string, Record<string, Record<string, number>>>;
  /** quota day → project id → units per API and Drive egress bytes, what the daily thresholds count. */
  projects: Record<string, Record<string, ProjectDay>>;
  /** quota day → user → bytes uploaded to Drive (the 750 GB a day threshold). */
  driveUploads: Record<string, Record<string, number>>;
}

/** A token bucket on the quota clock. */
class Bucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly capacity: number,
    quotaNow: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = quotaNow;
  }

  private refill(quotaNow: number): void {
    const elapsedMinutes = Math.max(0, quotaNow - this.updatedAt) / 60_000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsedMinutes * this.capacity);
    this.updatedAt = quotaNow;
  }

  /** Quota-clock milliseconds until `cost` is available; 0 when it is now. */
  waitFor(cost: number, quotaNow: number): number {
    this.refill(quotaNow);
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

const PACIFIC_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Los_Angeles",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The quota day (YYYY-MM-DD, Pacific time) of an instant: Google's daily quotas reset at midnight PT. */
export function quotaDayOf(instant: number): string {
  return PACIFIC_DAY.format(new Date(instant));
}

/** How a call is charged: which project, and whether it uploads content to Drive. */
export interface ChargeOptions {
  /** The Google Cloud project of the caller's service account (default: the emulator's). */
  project?: string;
  /** The call starts an upload of content (Drive's per-user daily upload threshold applies). */
  upload?: boolean;
}

export interface QuotaTrackerOptions {
  /** The project of callers that name none (the emulator's service account). */
  defaultProject?: string;
  /** Project numbers for error messages ("project_number:…"), per project id. */
  projectNumbers?: Record<string, string>;
}

const DEFAULT_SETTINGS: QuotaSettings = {
  enabled: true,
  model: "2026",
  timeScale: 1,
  projects: {},
  gmailUserLimit: "alternate",
};

export class QuotaTracker {
  settings: QuotaSettings;
  readonly defaultProject: string;
  private readonly projectNumbers: Record<string, string>;
  private buckets = new Map<string, Bucket>();
  private inFlight = new Map<string, number>();
  /** Per project and user: refusals of the per-user Gmail limit so far (which form answers next). */
  private userRefusals = new Map<string, number>();
  /** `${day}|${project}|${api}` → units; `${day}|${project}|egress` → bytes; `${day}|upload|${user}` → bytes. */
  private dayCounters = new Map<string, number>();
  private stats: Omit<QuotaStats, "settings" | "quotaDay"> = emptyStats();
  /** The quota clock: `quota` at real time `real`, then `timeScale` times faster. */
  private anchor: { real: number; quota: number };

  constructor(
    settings: Partial<QuotaSettings> = {},
    private readonly now: () => number = Date.now,
    options: QuotaTrackerOptions = {},
  ) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings, projects: { ...(settings.projects ?? {}) } };
    if (!(this.settings.timeScale > 0)) throw new Error("timeScale must be > 0");
    this.defaultProject = options.defaultProject ?? "default";
    this.projectNumbers = options.projectNumbers ?? {};
    const start = now();
    this.anchor = { real: start, quota: start };
  }

  /** Now on the quota clock (ms since the epoch). */
  quotaNow(): number {
    return this.anchor.quota + (this.now() - this.anchor.real) * this.settings.timeScale;
  }

  quotaDay(): string {
    return quotaDayOf(this.quotaNow());
  }

  configure(change: QuotaSettingsChange): void {
    if (change.timeScale !== undefined && !(change.timeScale > 0)) throw new Error("timeScale must be > 0");
    if (change.model !== undefined && !QUOTA_MODEL_NAMES.includes(change.model)) {
      throw new Error("model must be '2026' or 'legacy'");
    }
    if (change.gmailUserLimit !== undefined && !["alternate", "429", "403"].includes(change.gmailUserLimit)) {
      throw new Error("gmailUserLimit must be 'alternate', '429' or '403'");
    }
    const projects = { ...this.settings.projects };
    for (const [project, value] of Object.entries(change.projects ?? {})) {
      if (value === null) delete projects[project];
      else projects[project] = this.checkProject(project, value);
    }
    // The quota clock stays continuous when its speed changes.
    const quotaNow = this.quotaNow();
    this.anchor = { real: this.now(), quota: quotaNow };
    const before = this.settings;
    this.settings = {
      ...before,
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      ...(change.model !== undefined ? { model: change.model } : {}),
      ...(change.timeScale !== undefined ? { timeScale: change.timeScale } : {}),
      ...(change.gmailUserLimit !== undefined ? { gmailUserLimit: change.gmailUserLimit } : {}),
      projects,
    };
    // A project whose model changed starts with full buckets of its new limits.
    for (const project of new Set([...Object.keys(before.projects), ...Object.keys(projects)])) {
      const was = before.projects[project]?.model ?? before.model;
      const is = projects[project]?.model ?? this.settings.model;
      if (was !== is) this.dropBuckets(project);
    }
    if (before.model !== this.settings.model) {
      for (const project of this.knownProjects()) {
        if (!projects[project]?.model) this.dropBuckets(project);
      }
    }
  }

  private checkProject(project: string, value: ProjectQuotaSettings): ProjectQuotaSettings {
    if (typeof value !== "object" || Array.isArray(value))
      throw new Error(`projects.${project} must be an object`);
    const model = value.model ?? this.settings.model;
    if (!QUOTA_MODEL_NAMES.includes(model)) throw new Error("model must be '2026' or 'legacy'");
    const out: ProjectQuotaSettings = { ...(value.model ? { model: value.model } : {}) };
    for (const [api, units] of Object.entries(value.dailyUnits ?? {})) {
      if (api !== "gmail" && api !== "drive") throw new Error(`dailyUnits.${api}: only gmail and drive`);
      const ceiling = QUOTA_MODELS[model][api].daily.unitsPerProject ?? Infinity;
      if (typeof units !== "number" || !(units >= 0) || units > ceiling) {
        throw new Error(`dailyUnits.${api} must be a number between 0 and the model's ${String(ceiling)}`);
      }
      out.dailyUnits = { ...out.dailyUnits, [api]: units };
    }
    if (value.driveEgressBytesPerDay !== undefined) {
      const ceiling = QUOTA_MODELS[model].drive.daily.egressBytesPerProject ?? Infinity;
      const bytes = value.driveEgressBytesPerDay;
      if (typeof bytes !== "number" || !(bytes >= 0) || bytes > ceiling) {
        throw new Error(
          `driveEgressBytesPerDay must be a number between 0 and the model's ${String(ceiling)}`,
        );
      }
      out.driveEgressBytesPerDay = bytes;
    }
    return out;
  }

  private knownProjects(): Set<string> {
    const projects = new Set<string>([this.defaultProject]);
    for (const key of this.buckets.keys()) projects.add(key.split("|")[0] as string);
    return projects;
  }

  private dropBuckets(project: string): void {
    for (const key of [...this.buckets.keys()]) if (key.startsWith(`${project}|`)) this.buckets.delete(key);
  }

  /** The model a project is on. */
  modelOf(project: string = this.defaultProject): QuotaModelName {
    return this.settings.projects[project]?.model ?? this.settings.model;
  }

  cost(methodId: string, project: string = this.defaultProject): number {
    const quota = QUOTA_MODELS[this.modelOf(project)][apiOf(methodId)];
    return quota.costs[methodId] ?? quota.defaultCost;
  }

  /** The daily thresholds in force for a project and API (the model's, lowered by the project's). */
  dailyLimits(api: ApiName, project: string = this.defaultProject): DailyLimits {
    const model = QUOTA_MODELS[this.modelOf(project)][api].daily;
    const own = this.settings.projects[project];
    const units = api === "gmail" || api === "drive" ? own?.dailyUnits?.[api] : undefined;
    const egress = api === "drive" ? own?.driveEgressBytesPerDay : undefined;
    return {
      ...(model.unitsPerProject !== undefined || units !== undefined
        ? { unitsPerProject: Math.min(model.unitsPerProject ?? Infinity, units ?? Infinity) }
        : {}),
      ...(model.egressBytesPerProject !== undefined || egress !== undefined
        ? { egressBytesPerProject: Math.min(model.egressBytesPerProject ?? Infinity, egress ?? Infinity) }
        : {}),
    };
  }

  private bucket(key: string, capacity: number, quotaNow: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new Bucket(capacity, quotaNow);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private counter(key: string): number {
    return this.dayCounters.get(key) ?? 0;
  }

  private add(key: string, amount: number): void {
    this.dayCounters.set(key, this.counter(key) + amount);
  }

  /**
   * Charges one call, or throws the error Google answers when a limit is hit. Returns a release function
   * to call when the response is done (concurrency accounting).
   */
  begin(methodId: string, user: string | undefined, options: ChargeOptions = {}): () => void {
    const api = apiOf(methodId);
    const project = options.project ?? this.defaultProject;
    const quota = QUOTA_MODELS[this.modelOf(project)][api];
    const who = user ?? "project";
    const cost = this.cost(methodId, project);
    const flightKey = `${project}|${api}|${who}`;
    const quotaNow = this.quotaNow();
    const day = quotaDayOf(quotaNow);
    try {
      if (this.settings.enabled) {
        if (user && (this.inFlight.get(flightKey) ?? 0) >= quota.concurrentPerUser) {
          throw new GoogleApiError(429, "Too many concurrent requests for user.", "rateLimitExceeded", {
            domain: "usageLimits",
          });
        }
        this.checkDaily(api, project, user, day, cost, options.upload === true);
        const userBucket = user
          ? this.bucket(`${project}|${api}|user|${user}`, quota.perUserPerMinute, quotaNow)
          : undefined;
        const projectBucket = this.bucket(`${project}|${api}|project`, quota.perProjectPerMinute, quotaNow);
        const userWait = userBucket?.waitFor(cost, quotaNow) ?? 0;
        if (userWait > 0) {
          const realWait = userWait / this.settings.timeScale;
          throw this.userLimitError(api, project, who, new Date(this.now() + realWait));
        }
        if (projectBucket.waitFor(cost, quotaNow) > 0) throw this.projectLimitError(api, project);
        userBucket?.take(cost);
        projectBucket.take(cost);
      }
    } catch (error) {
      this.count(methodId, who, api, 0, true, day, project);
      throw error;
    }
    this.count(methodId, who, api, cost, false, day, project);
    this.add(`${day}|${project}|${api}`, cost);
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

  /** The daily thresholds: project units (Gmail, Drive), Drive egress, and a user's Drive uploads. */
  private checkDaily(
    api: ApiName,
    project: string,
    user: string | undefined,
    day: string,
    cost: number,
    upload: boolean,
  ): void {
    const limits = this.dailyLimits(api, project);
    if (
      limits.unitsPerProject !== undefined &&
      this.counter(`${day}|${project}|${api}`) + cost > limits.unitsPerProject
    ) {
      throw dailyLimitError();
    }
    if (
      limits.egressBytesPerProject !== undefined &&
      this.counter(`${day}|${project}|egress`) >= limits.egressBytesPerProject
    ) {
      throw dailyLimitError();
    }
    if (
      api === "drive" &&
      upload &&
      user &&
      this.counter(`${day}|upload|${user}`) >= DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY
    ) {
      throw driveUserRateLimitError();
    }
  }

  /** Bytes a project's Drive answers sent (downloads, exports, JSON): the daily egress threshold. */
  countEgress(bytes: number, project: string = this.defaultProject): void {
    if (bytes <= 0) return;
    const day = this.quotaDay();
    this.add(`${day}|${project}|egress`, bytes);
    const entry = this.projectDay(day, project);
    entry.driveEgressBytes += bytes;
  }

  /** Bytes a user uploaded to Drive: once a day's total reaches 750 GB, new uploads are refused. */
  countUpload(user: string, bytes: number): void {
    if (bytes <= 0) return;
    const day = this.quotaDay();
    this.add(`${day}|upload|${user}`, bytes);
    const perUser = (this.stats.driveUploads[day] ??= {});
    perUser[user] = (perUser[user] ?? 0) + bytes;
  }

  private projectDay(day: string, project: string): ProjectDay {
    return ((this.stats.projects[day] ??= {})[project] ??= { units: {}, driveEgressBytes: 0 });
  }

  private count(
    methodId: string,
    who: string,
    api: ApiName,
    units: number,
    rejected: boolean,
    day: string,
    project: string,
  ): void {
    const perUser = (this.stats.users[who] ??= {});
    const method = (perUser[methodId] ??= { calls: 0, units: 0, rejected: 0 });
    const total = (this.stats.project[api] ??= { calls: 0, units: 0, rejected: 0 });
    if (rejected) {
      method.rejected += 1;
      total.rejected += 1;
      return;
    }
    method.calls += 1;
    method.units += units;
    total.calls += 1;
    total.units += units;
    const daily = ((this.stats.daily[day] ??= {})[who] ??= {});
    daily[api] = (daily[api] ?? 0) + units;
    const entry = this.projectDay(day, project);
    entry.units[api] = (entry.units[api] ?? 0) + units;
  }

  report(): QuotaStats {
    return {
      settings: structuredClone(this.settings),
      quotaDay: this.quotaDay(),
      ...structuredClone(this.stats),
    };
  }

  /** Clears statistics and daily totals, and refills every bucket. */
  reset(): void {
    this.stats = emptyStats();
    this.buckets.clear();
    this.dayCounters.clear();
    this.userRefusals.clear();
  }

  private projectNumber(project: string): string {
    return this.projectNumbers[project] ?? numberOfProject(project);
  }

  /**
   * A user over the per-minute limit. Gmail answers 429 "User-rate limit exceeded. Retry after …" and also
   * 403 rateLimitExceeded with the quota metric's message; Drive answers 403 userRateLimitExceeded.
   */
  private userLimitError(api: ApiName, project: string, who: string, retryAt: Date): GoogleApiError {
    if (api !== "gmail") {
      return new GoogleApiError(403, "User rate limit exceeded.", "userRateLimitExceeded", {
        domain: "usageLimits",
        status: "PERMISSION_DENIED",
      });
    }
    const key = `${project}|${who}`;
    const refusals = this.userRefusals.get(key) ?? 0;
    this.userRefusals.set(key, refusals + 1);
    const form = this.settings.gmailUserLimit;
    if (form === "403" || (form === "alternate" && refusals % 2 === 1)) {
      return new GoogleApiError(
        403,
        `Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'gmail.googleapis.com' for consumer 'project_number:${this.projectNumber(project)}'.`,
        "rateLimitExceeded",
        { domain: "usageLimits", status: "PERMISSION_DENIED" },
      );
    }
    return new GoogleApiError(
      429,
      `User-rate limit exceeded.  Retry after ${retryAt.toISOString()}`,
      "rateLimitExceeded",
      { domain: "usageLimits" },
    );
  }

  private projectLimitError(api: ApiName, project: string): GoogleApiError {
    const service = api === "directory" ? "admin.googleapis.com" : `${api}.googleapis.com`;
    return new GoogleApiError(
      403,
      `Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service '${service}' for consumer 'project_number:${this.projectNumber(project)}'.`,
      "rateLimitExceeded",
      { domain: "usageLimits", status: "PERMISSION_DENIED" },
    );
  }
}

function emptyStats(): Omit<QuotaStats, "settings" | "quotaDay"> {
  return { users: {}, project: {}, daily: {}, projects: {}, driveUploads: {} };
}

/** A stable 12-digit project number for a project id the emulator was not told the number of. */
function numberOfProject(project: string): string {
  let hash = 0;
  for (const char of project) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return String(100_000_000_000 + (hash % 900_000_000_000));
}

/** Gmail's and Drive's answer once a project's daily threshold is used up ("Resolve errors" pages). */
function dailyLimitError(): GoogleApiError {
  return new GoogleApiError(403, "Daily Limit Exceeded", "dailyLimitExceeded", {
    domain: "usageLimits",
    status: "PERMISSION_DENIED",
  });
}

/** Drive's answer to an upload once the user uploaded 750 GB that day. */
function driveUserRateLimitError(): GoogleApiError {
  return new GoogleApiError(403, "User rate limit exceeded.", "userRateLimitExceeded", {
    domain: "usageLimits",
    status: "PERMISSION_DENIED",
  });
}
