/**
 * How the runner reads an error: the run's failure reason, an item's own error, a service's failure, and
 * the two ways a run stops early (docs/requirements.md#errors-and-messages).
 */
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import { BlobStoreError } from "../blobstore/blob-store";
import { EncryptionError, EncryptionKeyError, FormatError } from "../format/errors";
import { GoogleCallError, answerOf, classifyGoogleError, failureScope } from "../google/errors";
import { GOOGLE_APIS, type GoogleApi } from "../google/caller";
import { googleStatus } from "../sources/google-errors";
import {
  ContentMismatchError,
  ItemNotReadError,
  NoAccessError,
  StreamError,
  type Source,
  type SourceKind,
} from "../sources/source";
import { isCatalogUnavailable } from "./catalog";

/** Whether an error came from a Google call (through the caller, or straight from the client). */
function isGoogleError(error: unknown): boolean {
  return error instanceof GoogleCallError || googleStatus(error) !== undefined;
}

/** What a service's failure says, for the screen: Google's reason, the HTTP status, or ours. */
export function detailOf(error: unknown): string | undefined {
  if (error instanceof NoAccessError) return error.detail;
  return answerOf(classifyGoogleError(error));
}

/** The run's failure reason for a fatal error (docs/requirements.md#errors-and-messages). */
export function failureReasonOf(error: unknown): BackupFailureReason {
  if (error instanceof NoAccessError) return "backup-not-completed";
  if (error instanceof BlobStoreError) {
    return error.kind === "unavailable" ? "object-storage-unavailable" : "unknown-error";
  }
  if (error instanceof EncryptionKeyError) return "encryption-key-error";
  if (error instanceof EncryptionError || error instanceof FormatError) return "encryption-error";
  if (isGoogleError(error)) return classifyGoogleError(error).reason ?? "google-api-error";
  if (isCatalogUnavailable(error)) return "database-unresponsive";
  return "unknown-error";
}

/**
 * The reason recorded for an item error (Google's reason, or the HTTP status), or undefined when the error
 * is not about the item alone: any 4xx of an item's call is the item's (unknown ones included), but those
 * that refuse the whole service (`failureScope`).
 */
export function itemErrorReason(error: unknown): string | undefined {
  if (error instanceof ContentMismatchError) return "content-mismatch";
  if (error instanceof ItemNotReadError) return error.reason;
  if (!isGoogleError(error) || failureScope(error, true) !== "item") return undefined;
  const classified = classifyGoogleError(error);
  return answerOf(classified) ?? `http-${classified.status}`;
}

/** A Google failure that ends one service's part of the run: which stream, and whether it is unavailable. */
export interface StreamFailure {
  stream: SourceKind;
  cause: unknown;
  unavailable: boolean;
}

/**
 * The stream failure `error` is (a source of several streams only), or undefined: anything else fails
 * the run.
 */
export function streamFailure(
  source: Source,
  error: unknown,
  stream: SourceKind | undefined,
): StreamFailure | undefined {
  const cause = error instanceof StreamError ? error.cause : error;
  const kind = error instanceof StreamError ? error.stream : stream;
  if (!kind || !source.cursorAfter) return undefined;
  if (cause instanceof NoAccessError) return { stream: kind, cause, unavailable: false };
  if (!isGoogleError(cause)) return undefined;
  return { stream: kind, cause, unavailable: failureScope(cause, false) === "unavailable" };
}

/**
 * Google's daily threshold of an API is spent for the project: every call answers 403
 * `dailyLimitExceeded` until the quota day ends (midnight Pacific time; Gmail's and Drive's "Resolve
 * errors" pages). Not a failure of the resource: the run stops at its last stored item and goes on once
 * the day has turned, as it does when our own daily budget is spent. Which API (from the call's method),
 * when the error says; undefined when the error is not that.
 */
export function dailyLimitOf(error: unknown): { api?: GoogleApi } | undefined {
  const cause = error instanceof StreamError ? error.cause : error;
  if (!isGoogleError(cause) || classifyGoogleError(cause).googleReason !== "dailyLimitExceeded") {
    return undefined;
  }
  const prefix = cause instanceof GoogleCallError ? cause.method.split(".")[0] : undefined;
  const api = GOOGLE_APIS.find((candidate) => candidate === prefix);
  return api ? { api } : {};
}

export class StopRequested extends Error {
  constructor() {
    super("The run was asked to stop");
    this.name = "StopRequested";
  }
}

/** The deadline came in the middle of a large item: what is stored of it is in the batch's `partial`. */
export class PartialStop extends Error {
  constructor() {
    super("Stopped in the middle of a large item");
    this.name = "PartialStop";
  }
}
