/**
 * How long work has left (backups, recoveries, exports) and what limits its pace: the shapes the API
 * answers and the sentences that name each limit, shared by the API (which phrases them) and the console.
 * The figures come from Google's quota model (functions/src/engine/google/eta.ts; docs/backup-engine.md
 * "Totals, rate and time left").
 */

/**
 * What binds a run's pace: one of Google's limits (per user, per project, a daily budget or a daily byte
 * limit), the run's own measured pace when it is slower than any of them, or nothing ("none": no Google
 * quota applies, as for an export, and the run has not run long enough to measure its pace).
 */
export const ETA_LIMIT_KINDS = [
  "gmail-user",
  "gmail-project",
  "gmail-daily",
  "drive-user",
  "drive-project",
  "drive-daily",
  "drive-egress",
  "drive-upload",
  "calendar-user",
  "calendar-project",
  "contacts-user",
  "contacts-project",
  "measured",
  "none",
] as const;
export type EtaLimitKind = (typeof ETA_LIMIT_KINDS)[number];

/** The limit that binds, and a sentence naming it ("Gmail's import limit of 240 messages a minute per mailbox"). */
export interface EtaLimit {
  kind: EtaLimitKind;
  text: string;
}

/**
 * What a running recovery or export reports of its pace: the source bytes of every item chosen, its
 * measured pace (null until it has run a minute), the seconds left at that pace and the limit that sets it;
 * null once it has ended.
 */
export interface WorkPace {
  totalBytes: number;
  itemsPerMinute: number | null;
  etaSeconds: number | null;
  limit: EtaLimit | null;
}

/**
 * POST /v1/organizations/{id}/recoveries/estimate: what a recovery would restore (items and source bytes)
 * and about how long it would take (seconds; null when nothing can be said), with the limit that sets it.
 */
export interface RecoveryEstimate {
  items: number;
  bytes: number;
  seconds: number | null;
  limit: EtaLimit;
}

/** What a run does, as its pace is limited: the Google calls it makes per item and byte differ. */
export type WorkKind =
  | "gmail-backup"
  | "drive-backup"
  | "calendar-backup"
  | "contacts-backup"
  | "gmail-restore"
  | "drive-restore"
  | "calendar-restore"
  | "contacts-restore"
  | "export";

const numberText = (value: number): string => Math.round(value).toLocaleString("en-US");

/** "1 TB", "750 GB": decimal units, as Google states its byte limits. */
export function byteLimitText(bytes: number): string {
  const units: [number, string][] = [
    [1e12, "TB"],
    [1e9, "GB"],
    [1e6, "MB"],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${numberText(bytes / size)} ${unit}`;
  }
  return `${numberText(bytes)} bytes`;
}

/** "shared by 3 runs" when others spend the same limit now. */
const sharedBy = (runs: number): string => (runs > 1 ? `, shared by ${numberText(runs)} runs` : "");

const GMAIL_VERBS: Partial<Record<WorkKind, string>> = {
  "gmail-backup": "read",
  "gmail-restore": "import",
};

/** What each limit's sentence says, from the figures of the quota model. */
export const ETA_LIMIT_TEXTS = {
  gmailUser: (work: WorkKind, messagesPerMinute: number, runs: number) =>
    `Gmail's ${GMAIL_VERBS[work] ?? "read"} limit of ${numberText(messagesPerMinute)} messages a minute per mailbox${sharedBy(runs)}`,
  gmailProject: (unitsPerMinute: number, runs: number) =>
    `the project's Gmail limit of ${numberText(unitsPerMinute)} quota units a minute${sharedBy(runs)}`,
  gmailDaily: (unitsPerDay: number, runs: number) =>
    `the project's daily Gmail budget of ${numberText(unitsPerDay)} quota units${sharedBy(runs)}`,
  driveUser: (filesPerMinute: number, runs: number) =>
    `Drive's limit of ${numberText(filesPerMinute)} files a minute per user${sharedBy(runs)}`,
  driveProject: (unitsPerMinute: number, runs: number) =>
    `the project's Drive limit of ${numberText(unitsPerMinute)} quota units a minute${sharedBy(runs)}`,
  driveDaily: (unitsPerDay: number, runs: number) =>
    `the project's daily Drive budget of ${numberText(unitsPerDay)} quota units${sharedBy(runs)}`,
  driveEgress: (bytesPerDay: number, runs: number) =>
    `Drive's download limit of ${byteLimitText(bytesPerDay)} a day for the project${sharedBy(runs)}`,
  calendarUser: (requestsPerMinute: number, runs: number) =>
    `Calendar's limit of ${numberText(requestsPerMinute)} requests a minute per user${sharedBy(runs)}`,
  calendarProject: (requestsPerMinute: number, runs: number) =>
    `the project's Calendar limit of ${numberText(requestsPerMinute)} requests a minute${sharedBy(runs)}`,
  contactsUser: (requestsPerMinute: number, runs: number) =>
    `the People API's limit of ${numberText(requestsPerMinute)} requests a minute per user${sharedBy(runs)}`,
  contactsProject: (requestsPerMinute: number, runs: number) =>
    `the project's People API limit of ${numberText(requestsPerMinute)} requests a minute${sharedBy(runs)}`,
  driveUpload: (bytesPerDay: number) =>
    `Drive's upload limit of ${byteLimitText(bytesPerDay)} a day per user`,
  measured: (
    pace: { itemsPerMinute: number | null; bytesPerMinute: number },
    items: string,
    slowerThan: string | null,
  ) =>
    `its measured pace of ${
      pace.itemsPerMinute !== null
        ? `${numberText(pace.itemsPerMinute)} ${items}`
        : byteLimitText(pace.bytesPerMinute)
    } a minute${slowerThan ? `, slower than ${slowerThan}` : ""}`,
  noQuota: "No Google quota applies: the time left follows the measured pace, once it has run a minute",
} as const;

/**
 * A duration for people, rounded to what matters at its size: "under a minute", "42 min", "3 h 20 min",
 * "2 days 5 h".
 */
export function durationText(seconds: number): string {
  if (seconds < 60) return "under a minute";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} days` : `${days} days ${hours % 24} h`;
}
