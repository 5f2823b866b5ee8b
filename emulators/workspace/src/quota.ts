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
import {
  Bucket,
  apiOf,
  dailyLimitError,
  driveUserRateLimitError,
  emptyStats,
  numberOfProject,
  quotaDayOf,
} from "./quota-clock";
import {
  type ApiName,
  DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY,
  type DailyLimits,
  type ProjectDay,
  type ProjectQuotaSettings,
  QUOTA_MODELS,
  QUOTA_MODEL_NAMES,
  type QuotaModelName,
  type QuotaSettings,
  type QuotaSettingsChange,
  type QuotaStats,
  DEFAULT_SETTINGS,
} from "./quota-models";

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
