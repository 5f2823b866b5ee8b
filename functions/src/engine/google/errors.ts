/**
 * What an error from a Google call means for a backup run:
 * - "retry": transient (rate limits, 5xx, dropped connections); the caller retries it, and when retries
 *   run out it becomes the run's fatal `reason`;
 * - "item": permanent for one item (a message deleted meanwhile, a file Google will not let us download,
 *   a bad request about one item): recorded on the item, the run goes on;
 * - "fatal": the run cannot go on (app uninstalled, scopes revoked, daily limit): the run fails with the
 *   required failure reason.
 * Reads gaxios errors (`response.status`, `response.data.error.errors[0].reason`, the OAuth token
 * endpoint's `{error, error_description}`, network error codes), never the message content of a request.
 */
import type { BackupFailureReason } from "@alpvault/contracts/backups";

export type GoogleErrorKind = "retry" | "item" | "fatal";

export interface GoogleErrorClass {
  kind: GoogleErrorKind;
  /** The run's failure reason: for "fatal", and for "retry" what it becomes when retries run out. */
  reason?: BackupFailureReason;
  /** HTTP status; 0 when no response came (connection reset, refused, timeout). */
  status: number;
  /** Google's `error.errors[0].reason`, the OAuth `error` code, or the network error code. */
  googleReason?: string;
  /**
   * True when Google answered that it did not run the request (429, 403 rate limits, a refused
   * connection): safe to repeat even when the request is not idempotent.
   */
  notExecuted?: boolean;
  /** A rate limit whose message names the per-user limit ("Queries per minute per user", "User-rate"). */
  perUserLimit?: boolean;
}

/** How a product text names Google's answer: Google's reason, else the HTTP status ("http-404"); none without an answer. */
export function answerOf(classified: Pick<GoogleErrorClass, "googleReason" | "status">): string | undefined {
  return classified.googleReason ?? (classified.status ? `http-${classified.status}` : undefined);
}

/** 403 reasons that mean "slow down", not "forbidden". */
export const RATE_LIMIT_REASONS: ReadonlySet<string> = new Set([
  "rateLimitExceeded",
  "userRateLimitExceeded",
  "quotaExceeded",
]);

/** 403 reasons about one item only. */
const ITEM_FORBIDDEN_REASONS: ReadonlySet<string> = new Set([
  "cannotDownloadAbusiveFile",
  "cannotDownloadFile",
  "downloadQuotaExceeded",
  "fileNotDownloadable",
  "cannotExportFile",
  "exportSizeLimitExceeded",
  "insufficientFilePermissions",
  "appNotAuthorizedToFile",
  "cannotCopyFile",
  "teamDriveFileLimitExceeded",
]);

/** Statuses that are transient on Google's side. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** Codes of network failures (Node, undici, gaxios) after which a request may simply be repeated. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ERR_STREAM_PREMATURE_CLOSE",
  "TimeoutError",
]);

/** Codes that prove the request never reached Google. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
]);

/** OAuth token endpoint errors: delegation refused (app uninstalled, scopes withdrawn, user gone). */
const OAUTH_FATAL_ERRORS: ReadonlySet<string> = new Set([
  "invalid_grant",
  "unauthorized_client",
  "access_denied",
  "invalid_client",
  "invalid_scope",
]);

export interface GoogleErrorFacts {
  status: number;
  googleReason?: string;
  /** The OAuth token endpoint's `error` (a string body, not Google's API error object). */
  oauthError?: string;
  networkCode?: string;
  /** What `Retry-After` (or Gmail's "Retry after <date>") asks for, in ms from `now`. */
  retryAfterMs?: number;
  /** The message names a per-user limit. */
  perUserLimit?: boolean;
}

interface ResponseLike {
  status?: number;
  data?: unknown;
  headers?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function header(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  if (typeof (headers as { get?: unknown }).get === "function") {
    const value = (headers as { get(name: string): unknown }).get(name);
    return typeof value === "string" ? value : undefined;
  }
  const value = headers[name] ?? headers[name.toLowerCase()];
  return typeof value === "string" ? value : undefined;
}

function parseData(data: unknown): unknown {
  if (typeof data !== "string") return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** Milliseconds from `now` asked by a `Retry-After` value (seconds or an HTTP date). */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Walks an error and its causes for a network error code. */
function networkCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && isObject(current); depth += 1) {
    const code = current.code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    const name = current.name;
    if (typeof name === "string" && NETWORK_CODES.has(name)) return name;
    const message = typeof current.message === "string" ? current.message : "";
    if (/^(terminated|other side closed|socket hang up|fetch failed)$/i.test(message) && !current.cause) {
      return "ECONNRESET";
    }
    current = current.cause ?? current.error;
  }
  return undefined;
}

/** The facts of an error from a Google call (gaxios error, token endpoint error, network error). */
export function googleErrorFacts(error: unknown, now: number = Date.now()): GoogleErrorFacts {
  const response: ResponseLike | undefined =
    isObject(error) && isObject(error.response) ? (error.response as ResponseLike) : undefined;
  if (!response || typeof response.status !== "number") {
    const status = isObject(error) && typeof error.status === "number" ? error.status : 0;
    return { status, networkCode: status === 0 ? networkCodeOf(error) : undefined };
  }
  const data = parseData(response.data);
  const facts: GoogleErrorFacts = { status: response.status };
  if (isObject(data)) {
    if (typeof data.error === "string") facts.oauthError = data.error;
    else if (isObject(data.error)) {
      const errors = data.error.errors;
      const first = Array.isArray(errors) ? (errors[0] as unknown) : undefined;
      if (isObject(first) && typeof first.reason === "string") facts.googleReason = first.reason;
      else if (typeof data.error.status === "string") facts.googleReason = data.error.status;
      const message = typeof data.error.message === "string" ? data.error.message : "";
      if (/per\s+user|user-rate/i.test(message)) facts.perUserLimit = true;
      const match = /Retry after (\d{4}-\d{2}-\d{2}T[0-9:.]+Z)/.exec(message);
      if (match?.[1]) facts.retryAfterMs = Math.max(0, Date.parse(match[1]) - now);
    }
  }
  const retryAfter = parseRetryAfter(header(response.headers, "retry-after"), now);
  if (retryAfter !== undefined) facts.retryAfterMs = retryAfter;
  return facts;
}

/** Classifies an error from a Google call; see the file comment. */
export function classifyGoogleError(error: unknown): GoogleErrorClass {
  if (error instanceof GoogleCallError) return error.classification;
  return classifyFacts(googleErrorFacts(error));
}

export function classifyFacts(facts: GoogleErrorFacts): GoogleErrorClass {
  const { status, googleReason } = facts;
  const base = { status, ...(googleReason ? { googleReason } : {}) };
  if (status === 0) {
    if (facts.networkCode) {
      return {
        kind: "retry",
        reason: "google-api-error",
        status,
        googleReason: facts.networkCode,
        notExecuted: NOT_SENT_CODES.has(facts.networkCode),
      };
    }
    return { kind: "fatal", reason: "unknown-error", status };
  }
  if (facts.oauthError) {
    // The token endpoint: delegation refused (app uninstalled, scopes withdrawn, user suspended or gone).
    if (OAUTH_FATAL_ERRORS.has(facts.oauthError) || status < 500) {
      return { kind: "fatal", reason: "google-api-error", status, googleReason: facts.oauthError };
    }
    return { kind: "retry", reason: "google-api-error", status, googleReason: facts.oauthError };
  }
  if (status === 429) return { kind: "retry", reason: "google-api-error", ...base, notExecuted: true };
  if (status === 403 && googleReason && RATE_LIMIT_REASONS.has(googleReason)) {
    return {
      kind: "retry",
      reason: "google-api-error",
      ...base,
      notExecuted: true,
      ...(facts.perUserLimit ? { perUserLimit: true } : {}),
    };
  }
  if (RETRY_STATUSES.has(status)) return { kind: "retry", reason: "google-api-error", ...base };
  if (status === 401) return { kind: "fatal", reason: "google-api-error", ...base };
  if (status === 403) {
    if (googleReason && ITEM_FORBIDDEN_REASONS.has(googleReason)) return { kind: "item", ...base };
    // insufficientPermissions (scopes withdrawn), dailyLimitExceeded, domainPolicy, forbidden...
    return { kind: "fatal", reason: "google-api-error", ...base };
  }
  // Gmail answers 400 failedPrecondition when the mailbox cannot be served at all (mail service off).
  if (status === 400 && googleReason === "failedPrecondition") {
    return { kind: "fatal", reason: "google-api-error", ...base };
  }
  if (status >= 400 && status < 500) return { kind: "item", ...base };
  if (status >= 500) return { kind: "retry", reason: "google-api-error", ...base };
  return { kind: "fatal", reason: "unknown-error", ...base };
}

/**
 * 403 reasons that refuse the whole service to the user or the app, whatever the item: scopes withdrawn,
 * Drive apps disabled by the domain's admins, the project's daily limit, the API off for the project.
 */
const SERVICE_WIDE_REASONS: ReadonlySet<string> = new Set([
  "insufficientPermissions",
  "domainPolicy",
  "dailyLimitExceeded",
  "authError",
  "accessNotConfigured",
  "SERVICE_DISABLED",
]);

/**
 * The scope of a failure that the caller gave up on (retries spent, or not retried), as the backup runner
 * reads it:
 * - "item": about this item only, whatever Google's reason, when the call was about one item: any 4xx but
 *   those that refuse the whole service (401, the reasons above, Gmail's failedPrecondition), and a 5xx
 *   that outlived its retries (Drive answers one for some files persistently);
 * - "service": the service cannot be used by this resource now (auth refused, quota exhausted after
 *   retries, the connection to Google lost): its part of the run fails, its other services go on;
 * - "unavailable": the service does not exist for this user (Gmail off for a Drive-only licence or their
 *   organisational unit: 400 failedPrecondition): nothing to back up, not a failure.
 * `itemCall`: the failing call was about one item (a message's get, a file's download or permissions).
 */
export function failureScope(error: unknown, itemCall: boolean): "item" | "service" | "unavailable" {
  const classified = classifyGoogleError(error);
  const { status, googleReason } = classified;
  if (status === 400 && googleReason === "failedPrecondition") return "unavailable";
  if (!itemCall) return "service";
  if (classified.kind === "item") return "item";
  if (status === 0 || status === 401 || status === 429) return "service";
  if (googleReason && (RATE_LIMIT_REASONS.has(googleReason) || SERVICE_WIDE_REASONS.has(googleReason))) {
    return "service";
  }
  if (classified.googleReason && OAUTH_FATAL_ERRORS.has(classified.googleReason)) return "service";
  if (status >= 400 && status < 600) return "item";
  return "service";
}

/** Whether a failure is of the kind that passes (5xx, timeouts, rate limits, dropped connections). */
export function isTransient(error: unknown): boolean {
  const { status, googleReason } = classifyGoogleError(error);
  return (
    status === 0 ||
    status >= 500 ||
    RETRY_STATUSES.has(status) ||
    (status === 403 && googleReason !== undefined && RATE_LIMIT_REASONS.has(googleReason))
  );
}

/**
 * What the caller throws once it gives up: the last error of the call, its classification (retries run
 * out: "fatal"), the method and the number of attempts. Message and cause carry no request content.
 */
export class GoogleCallError extends Error {
  readonly classification: GoogleErrorClass;
  readonly method: string;
  readonly attempts: number;
  /**
   * The last error itself (a GaxiosError, with the request's configuration). Not enumerable and not the
   * `cause`, so logging this error never prints a request body or a header.
   */
  declare readonly original: unknown;

  constructor(method: string, attempts: number, classification: GoogleErrorClass, original: unknown) {
    const what = classification.googleReason ? ` ${classification.googleReason}` : "";
    super(`${method} failed (${classification.status || "no response"}${what}) after ${attempts} attempt(s)`);
    this.name = "GoogleCallError";
    this.method = method;
    this.attempts = attempts;
    this.classification = classification;
    Object.defineProperty(this, "original", { value: original, enumerable: false });
  }

  get kind(): GoogleErrorKind {
    return this.classification.kind;
  }

  get status(): number {
    return this.classification.status;
  }

  get googleReason(): string | undefined {
    return this.classification.googleReason;
  }

  /** The last HTTP response (`status`, `data`, `headers`), as on a GaxiosError; none without one. */
  get response(): { status: number; data?: unknown; headers?: unknown } | undefined {
    const original = this.original;
    return isObject(original) && isObject(original.response)
      ? (original.response as { status: number; data?: unknown; headers?: unknown })
      : undefined;
  }
}
