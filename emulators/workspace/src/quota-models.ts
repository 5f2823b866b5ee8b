/**
 * Google's quota models for the APIs we serve: per-method unit costs, per-minute limits per user and per
 * project, and the daily thresholds, as the 2026 model (projects created since May 2026) and the legacy
 * one have them; plus the shapes of the quota settings and statistics.
 */
export type ApiName =
  "gmail" | "drive" | "directory" | "marketplace" | "people" | "peopleWrites" | "calendar";
export type QuotaModelName = "2026" | "legacy";
export const QUOTA_MODEL_NAMES: readonly QuotaModelName[] = ["2026", "legacy"];

/** The daily thresholds of one API for one project (absent: none). */
export interface DailyLimits {
  /** Quota units the project may use per quota day. */
  unitsPerProject?: number;
  /** Bytes the project may egress (download) per quota day. */
  egressBytesPerProject?: number;
}

export interface ApiQuota {
  perUserPerMinute: number;
  perProjectPerMinute: number;
  /** Units per method id; methods not listed cost `defaultCost`. */
  costs: Record<string, number>;
  defaultCost: number;
  /** Requests of one user in flight at once before Google answers 429. */
  concurrentPerUser: number;
  daily: DailyLimits;
}

export const GMAIL_2026_COSTS: Record<string, number> = {
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
export const DRIVE_2026_COSTS: Record<string, number> = {
  "drive.files.get": 5,
  "drive.files.download": 200,
  "drive.files.export": 200,
  "drive.files.exportLink": 200,
  // files.download (a long-running operation) and its downloadUri cost a download, operations.get a read.
  "drive.files.downloadUri": 200,
  "drive.operations.get": 5,
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

export const GMAIL_LEGACY_COSTS: Record<string, number> = {
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
export const DIRECTORY_QUOTA: ApiQuota = {
  perUserPerMinute: 2_400,
  perProjectPerMinute: 150_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
  daily: {},
};
export const MARKETPLACE_QUOTA: ApiQuota = {
  perUserPerMinute: 1_000,
  perProjectPerMinute: 100_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
  daily: {},
};
/**
 * Calendar's per-minute limits, one request one unit, as the Calendar "Manage quotas" page
 * (https://developers.google.com/workspace/calendar/api/guides/quota) lists them: 10,000 requests a minute
 * per project, 600 per user per project (a sliding window). The page's daily billing threshold is not
 * modelled.
 */
export const CALENDAR_QUOTA: ApiQuota = {
  perUserPerMinute: 600,
  perProjectPerMinute: 10_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
  daily: {},
};

/**
 * The People API's per-minute limits, the same in both models, per quota metric: contact and profile reads
 * (`people`) and contact writes (`peopleWrites`), one request one unit, as the Cloud console lists them
 * ("Critical read requests (Contact and Profile Reads)", "Critical write requests (Contact Creates and
 * Updates)"). Google's People API pages publish no figure; 90 a minute per user is what developers report
 * (see docs/workspace-emulator.md, "People API").
 */
export const PEOPLE_READ_QUOTA: ApiQuota = {
  perUserPerMinute: 90,
  perProjectPerMinute: 90_000,
  costs: {},
  defaultCost: 1,
  concurrentPerUser: 10,
  daily: {},
};
export const PEOPLE_WRITE_QUOTA: ApiQuota = { ...PEOPLE_READ_QUOTA };
/** People API methods charged to the write metric; every other `people.*` method is a read. */
export const PEOPLE_WRITE_METHODS: ReadonlySet<string> = new Set([
  "people.people.createContact",
  "people.people.batchCreateContacts",
  "people.people.deleteContact",
  "people.people.updateContact",
  "people.people.updateContactPhoto",
  "people.contactGroups.create",
  "people.contactGroups.update",
  "people.contactGroups.delete",
  "people.contactGroups.members.modify",
]);

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
    people: PEOPLE_READ_QUOTA,
    peopleWrites: PEOPLE_WRITE_QUOTA,
    calendar: CALENDAR_QUOTA,
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
    people: PEOPLE_READ_QUOTA,
    peopleWrites: PEOPLE_WRITE_QUOTA,
    calendar: CALENDAR_QUOTA,
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

/** The settings a tracker starts with (and goes back to on reset). */
export const DEFAULT_SETTINGS: QuotaSettings = {
  enabled: true,
  model: "2026",
  timeScale: 1,
  projects: {},
  gmailUserLimit: "alternate",
};
