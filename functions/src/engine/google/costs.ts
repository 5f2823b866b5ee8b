/**
 * Google's quota model for the calls the engine makes: unit costs per method and the per-minute limits per
 * user and per project (the model Google enforces since May 2026, with unit costs on Drive too). The
 * Workspace emulator (`emulators/workspace/src/quota-models.ts`) charges the same figures. The table is
 * written twice on purpose: the emulator models Google on its own, so a wrong figure here is not mirrored
 * there, and `tests/engine/quota-caller.test.ts` checks that the two agree.
 *
 * Method ids are Google's (`gmail.users.messages.get`). A few calls cost differently depending on what they
 * fetch, so the engine names them by what they do:
 * - `drive.files.get` with `alt=media` is `drive.files.download` (200 units), metadata is `drive.files.get`;
 * - `files.export` is `drive.files.export`, a download through `exportLinks` is `drive.files.exportLink`;
 * - `revisions.get` with `alt=media` is `drive.revisions.download`;
 * - `files.download` (the long-running operation a Google Vid downloads through) is `drive.files.download`
 *   too, its polls `drive.operations.get` (a read) and the GET of its `downloadUri`
 *   `drive.files.downloadUri` (a download, like an export link).
 * `driveGetMethod()` picks the right id.
 */
import { GOOGLE_APIS, type GoogleApi } from "./caller";

export const UNIT_COSTS: Readonly<Record<string, number>> = {
  // Gmail
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
  // Drive: read 5, list 100, download 200, edit 50.
  "drive.files.get": 5,
  "drive.files.download": 200,
  "drive.files.export": 200,
  "drive.files.exportLink": 200,
  "drive.files.downloadUri": 200,
  "drive.operations.get": 5,
  "drive.files.list": 100,
  "drive.files.create": 50,
  "drive.files.update": 50,
  "drive.files.delete": 50,
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
  "drive.about.get": 5,
  // Calendar and People: one request, one unit (their quotas count requests).
  "calendar.calendarList.list": 1,
  "calendar.calendars.get": 1,
  "calendar.calendars.insert": 1,
  "calendar.acl.list": 1,
  "calendar.acl.insert": 1,
  "calendar.events.list": 1,
  "calendar.events.get": 1,
  "calendar.events.import": 1,
  "people.people.connections.list": 1,
  "people.people.get": 1,
  "people.people.batchCreateContacts": 1,
  "people.people.updateContactPhoto": 1,
  "people.contactGroups.list": 1,
  "people.contactGroups.get": 1,
  "people.contactGroups.create": 1,
  "people.contactGroups.members.modify": 1,
  "people.otherContacts.list": 1,
  // Directory: one call, one unit.
  "directory.users.list": 1,
  "directory.users.get": 1,
};

/** What a method missing from `UNIT_COSTS` costs. */
export const DEFAULT_UNIT_COST: Readonly<Record<GoogleApi, number>> = {
  gmail: 5,
  drive: 5,
  directory: 1,
  calendar: 1,
  people: 1,
};

export function unitCost(method: string, api: GoogleApi = apiOfMethod(method)): number {
  return UNIT_COSTS[method] ?? DEFAULT_UNIT_COST[api];
}

export function apiOfMethod(method: string): GoogleApi {
  const prefix = method.split(".")[0];
  return GOOGLE_APIS.find((api) => api === prefix) ?? "directory";
}

/** The method id of a Drive `files.get` or `revisions.get` call, by whether it downloads content. */
export function driveGetMethod(
  resource: "files" | "revisions",
  params: { alt?: string | null } = {},
): string {
  const download = params.alt === "media";
  if (resource === "files") return download ? "drive.files.download" : "drive.files.get";
  return download ? "drive.revisions.download" : "drive.revisions.get";
}

export interface QuotaLimits {
  /** Units one user may spend per minute (per API). */
  perUserPerMinute: number;
  /** Units the whole project may spend per minute (per API). */
  perProjectPerMinute: number;
  /** Requests of one user in flight at once before Google answers 429. */
  concurrentPerUser: number;
}

/**
 * Google's default limits (2026 model). A project with a raised quota passes its own. Gmail: "Per user rate
 * limit" and "Per project rate limit" of Gmail usage limits
 * (https://developers.google.com/workspace/gmail/api/reference/quota); Drive: "Queries per minute per user"
 * and "per project" of Drive usage limits (https://developers.google.com/workspace/drive/api/guides/limits);
 * Directory: Admin SDK Directory API limits (https://developers.google.com/workspace/admin/directory/v1/limits);
 * Calendar: "Manage quotas" (https://developers.google.com/workspace/calendar/api/guides/quota), 600 requests
 * a minute per user and 10,000 per project; People: the Cloud console's "Critical read requests" and
 * "Critical write requests" metrics, 90 a minute per user (Google's People pages publish no figure; the
 * engine counts reads and writes against one budget, the stricter reading).
 */
export const GOOGLE_QUOTA_LIMITS: Readonly<Record<GoogleApi, QuotaLimits>> = {
  gmail: { perUserPerMinute: 6_000, perProjectPerMinute: 1_200_000, concurrentPerUser: 10 },
  drive: { perUserPerMinute: 325_000, perProjectPerMinute: 1_000_000, concurrentPerUser: 10 },
  directory: { perUserPerMinute: 2_400, perProjectPerMinute: 150_000, concurrentPerUser: 10 },
  calendar: { perUserPerMinute: 600, perProjectPerMinute: 10_000, concurrentPerUser: 10 },
  people: { perUserPerMinute: 90, perProjectPerMinute: 90_000, concurrentPerUser: 10 },
};

/**
 * The quota models Google applies: the 2026 one to projects created since, the earlier one ("legacy") to
 * projects that were active before it (they keep their quotas). Which one a deployment's project has is
 * configuration (`GOOGLE_QUOTA_MODEL`), as are raised limits; nothing else in the engine assumes a model.
 */
export type QuotaModelName = "2026" | "legacy";

export interface QuotaModel {
  limits: Readonly<Record<GoogleApi, QuotaLimits>>;
  /**
   * Units the whole project may spend per quota day (midnight to midnight Pacific time), per API; absent:
   * no daily threshold. Google answers 403 dailyLimitExceeded beyond it until the day ends.
   */
  dailyUnits: Readonly<Partial<Record<GoogleApi, number>>>;
  /**
   * Bytes per quota day: what the whole project may download from Drive (absent: no such threshold), and
   * what one user may upload to Drive (My Drive and shared drives together).
   */
  dailyBytes: Readonly<{ driveEgressPerProject?: number; driveUploadPerUser: number }>;
  /** Unit costs that differ from `UNIT_COSTS`. */
  costs: Readonly<Record<string, number>>;
  /** What a method missing from `UNIT_COSTS` and `costs` costs, per API (legacy Drive: 1 per query). */
  defaultCosts?: Partial<Record<GoogleApi, number>>;
}

/** Every Drive method costs one query in the legacy model. */
const LEGACY_DRIVE_COSTS = Object.fromEntries(
  Object.keys(UNIT_COSTS)
    .filter((method) => method.startsWith("drive."))
    .map((method) => [method, 1]),
);

/**
 * What one user may upload to Drive per day, in either model: 750 GB (Google's Drive usage limits, "Other
 * limits", https://developers.google.com/workspace/drive/api/guides/limits, and "Shared drive limits in
 * Google Drive", https://support.google.com/a/answer/7338880).
 */
export const DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY = 750_000_000_000;

export const QUOTA_MODELS: Readonly<Record<QuotaModelName, QuotaModel>> = {
  "2026": {
    limits: GOOGLE_QUOTA_LIMITS,
    costs: {},
    // Gmail: 80,000,000 units a day per project ("Daily billing threshold", Gmail usage limits,
    // https://developers.google.com/workspace/gmail/api/reference/quota); Drive: 400,000,000 and 1 TB of
    // egress (Drive usage limits, https://developers.google.com/workspace/drive/api/guides/limits).
    dailyUnits: { gmail: 80_000_000, drive: 400_000_000 },
    dailyBytes: {
      driveEgressPerProject: 1_000_000_000_000,
      driveUploadPerUser: DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY,
    },
  },
  legacy: {
    limits: {
      gmail: { perUserPerMinute: 15_000, perProjectPerMinute: 1_200_000, concurrentPerUser: 10 },
      drive: { perUserPerMinute: 12_000, perProjectPerMinute: 12_000, concurrentPerUser: 10 },
      directory: GOOGLE_QUOTA_LIMITS.directory,
      calendar: GOOGLE_QUOTA_LIMITS.calendar,
      people: GOOGLE_QUOTA_LIMITS.people,
    },
    costs: {
      "gmail.users.messages.get": 5,
      "gmail.users.messages.attachments.get": 5,
      ...LEGACY_DRIVE_COSTS,
    },
    defaultCosts: { drive: 1 },
    // Projects active before the 2026 model keep their quotas, without its daily thresholds.
    dailyUnits: {},
    dailyBytes: { driveUploadPerUser: DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY },
  },
};

/** The unit cost of a method under a model. */
export function modelCost(model: QuotaModel, method: string, api: GoogleApi = apiOfMethod(method)): number {
  return model.costs[method] ?? UNIT_COSTS[method] ?? model.defaultCosts?.[api] ?? DEFAULT_UNIT_COST[api];
}
