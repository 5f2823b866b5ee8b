/**
 * The pieces the quota tracker is built from: token buckets on the quota clock, the quota day (Pacific
 * time), the API a method belongs to, project numbers, and Google's answers once a daily threshold is
 * used up.
 */
import { GoogleApiError } from "./http";
import { type ApiName, PEOPLE_WRITE_METHODS, type QuotaStats } from "./quota-models";

/** A token bucket on the quota clock. */
export class Bucket {
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
  if (prefix === "people") return PEOPLE_WRITE_METHODS.has(methodId) ? "peopleWrites" : "people";
  if (prefix === "calendar") return "calendar";
  return "directory";
}

export const PACIFIC_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Los_Angeles",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The quota day (YYYY-MM-DD, Pacific time) of an instant: Google's daily quotas reset at midnight PT. */
export function quotaDayOf(instant: number): string {
  return PACIFIC_DAY.format(new Date(instant));
}

export function emptyStats(): Omit<QuotaStats, "settings" | "quotaDay"> {
  return { users: {}, project: {}, daily: {}, projects: {}, driveUploads: {} };
}

/** A stable 12-digit project number for a project id the emulator was not told the number of. */
export function numberOfProject(project: string): string {
  let hash = 0;
  for (const char of project) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return String(100_000_000_000 + (hash % 900_000_000_000));
}

/** Gmail's and Drive's answer once a project's daily threshold is used up ("Resolve errors" pages). */
export function dailyLimitError(): GoogleApiError {
  return new GoogleApiError(403, "Daily Limit Exceeded", "dailyLimitExceeded", {
    domain: "usageLimits",
    status: "PERMISSION_DENIED",
  });
}

/** Drive's answer to an upload once the user uploaded 750 GB that day. */
export function driveUserRateLimitError(): GoogleApiError {
  return new GoogleApiError(403, "User rate limit exceeded.", "userRateLimitExceeded", {
    domain: "usageLimits",
    status: "PERMISSION_DENIED",
  });
}
