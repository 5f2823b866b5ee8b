/**
 * HTTP plumbing of the KMS emulator: Google's JSON error body (`{error: {code, message, status}}`), JSON
 * answers and request bodies.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

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

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": String(Buffer.byteLength(text)),
  });
  response.end(text);
}

const MAX_BODY_BYTES = 1024 * 1024;

export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(invalidArgument("Request payload size exceeds the limit: 1048576 bytes."));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** The body as a JSON object (an empty body is `{}`); anything else is Google's 400 parse error. */
export function parseJsonObject(buffer: Buffer): Record<string, unknown> {
  if (buffer.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(buffer.toString("utf8"));
  } catch {
    throw invalidArgument("Invalid JSON payload received.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidArgument("Invalid JSON payload received. Expected an object.");
  }
  return parsed as Record<string, unknown>;
}
