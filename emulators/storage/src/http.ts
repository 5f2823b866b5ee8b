/**
 * HTTP plumbing of the Cloud Storage emulator: Google's JSON error body
 * (`{error: {code, message, errors: [{message, domain, reason}]}}`), JSON answers, request bodies and the
 * integer query parameters the JSON API takes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseJsonObjectWith, readBodyUpTo, sendJson } from "../../kit/src/index";

/** One entry of `error.errors[]`. */
export interface StorageErrorItem {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
}

/** An error answered the way the Cloud Storage JSON API answers it. */
export class StorageApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly extra: Partial<StorageErrorItem>;

  constructor(code: number, message: string, reason: string, extra: Partial<StorageErrorItem> = {}) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.extra = extra;
  }

  body(): unknown {
    return {
      error: {
        code: this.code,
        message: this.message,
        errors: [{ message: this.message, domain: "global", reason: this.reason, ...this.extra }],
      },
    };
  }
}

export const invalid = (message: string, reason = "invalid"): StorageApiError =>
  new StorageApiError(400, message, reason);
export const required = (what: string): StorageApiError =>
  new StorageApiError(400, `Required parameter: ${what}`, "required");
export const notFound = (message: string): StorageApiError => new StorageApiError(404, message, "notFound");
export const conflict = (message: string): StorageApiError => new StorageApiError(409, message, "conflict");
export const conditionNotMet = (header: "If-Match" | "If-Metageneration-Match"): StorageApiError =>
  new StorageApiError(
    412,
    "At least one of the pre-conditions you specified did not hold.",
    "conditionNotMet",
    {
      locationType: "header",
      location: header,
    },
  );
export const rangeNotSatisfiable = (): StorageApiError =>
  new StorageApiError(416, "The requested range cannot be satisfied.", "requestedRangeNotSatisfiable", {
    locationType: "header",
    location: "Range",
  });
export const unavailable = (): StorageApiError =>
  new StorageApiError(503, "We encountered an internal error. Please try again.", "backendError");

export function sendError(response: ServerResponse, error: StorageApiError): void {
  sendJson(response, error.code, error.body());
}

/**
 * The largest body read into memory: a whole media or multipart upload, or a JSON body. Resumable session
 * PUTs stream to disk and have no such limit.
 */
export const MAX_BODY_BYTES = 512 * 1024 * 1024;

export { sendJson };

export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return readBodyUpTo(
    request,
    limit,
    () => new StorageApiError(413, `The request body exceeds ${limit} bytes.`, "uploadTooLarge"),
  );
}

/** The body as a JSON object (an empty body is `{}`); anything else is the API's 400 parse error. */
export function parseJsonObject(buffer: Buffer): Record<string, unknown> {
  return parseJsonObjectWith(buffer, (message) => invalid(message, "parseError"));
}

/** An optional integer query parameter (`ifGenerationMatch`, `maxResults`...); malformed is a 400. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  if (!/^-?\d+$/.test(raw)) {
    throw invalid(`Invalid value '${raw}' for ${name}: an integer is required.`);
  }
  return Number(raw);
}
