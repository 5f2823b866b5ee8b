/**
 * HTTP plumbing of the KMS emulator: Google's JSON error body (`{error: {code, message, status}}`), JSON
 * answers and request bodies.
 */
import type { IncomingMessage } from "node:http";
import { parseJsonObjectWith, readBodyUpTo, sendJson } from "../../kit/src/index";

/** The HTTP code Cloud KMS answers for each canonical status. */
const HTTP_BY_STATUS = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
} as const;

export type KmsStatus = keyof typeof HTTP_BY_STATUS;

/** An error answered the way Cloud KMS's REST API answers: `{error: {code, message, status}}`. */
export class KmsError extends Error {
  readonly status: KmsStatus;
  readonly code: number;

  constructor(status: KmsStatus, message: string) {
    super(message);
    this.status = status;
    this.code = HTTP_BY_STATUS[status];
  }

  body(): unknown {
    return { error: { code: this.code, message: this.message, status: this.status } };
  }
}

export const invalidArgument = (message: string): KmsError => new KmsError("INVALID_ARGUMENT", message);
export const failedPrecondition = (message: string): KmsError => new KmsError("FAILED_PRECONDITION", message);
export const notFound = (message: string): KmsError => new KmsError("NOT_FOUND", message);
export const alreadyExists = (message: string): KmsError => new KmsError("ALREADY_EXISTS", message);

const MAX_BODY_BYTES = 1024 * 1024;

export { sendJson };

export function readBody(request: IncomingMessage): Promise<Buffer> {
  return readBodyUpTo(request, MAX_BODY_BYTES, () =>
    invalidArgument("Request payload size exceeds the limit: 1048576 bytes."),
  );
}

/** The body as a JSON object (an empty body is `{}`); anything else is Google's 400 parse error. */
export function parseJsonObject(buffer: Buffer): Record<string, unknown> {
  return parseJsonObjectWith(buffer, invalidArgument);
}
