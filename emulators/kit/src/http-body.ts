/**
 * Request and answer bodies as Google's JSON APIs handle them: answers as UTF-8 JSON with their length,
 * request bodies read up to a limit, and JSON bodies that must be objects. Each emulator passes the
 * error its API answers with (Cloud Storage, Cloud KMS and Workspace word them differently).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

/**
 * Reads a whole request body. Past `limit` bytes it rejects with `tooLarge()` and drops the connection
 * (the client is still sending).
 */
export function readBodyUpTo(
  request: IncomingMessage,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge());
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/**
 * The body as a JSON object (an empty body is `{}`); anything else is the API's 400 parse error, made by
 * `invalid` from Google's wording.
 */
export function parseJsonObjectWith(
  buffer: Buffer,
  invalid: (message: string) => Error,
): Record<string, unknown> {
  if (buffer.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(buffer.toString("utf8"));
  } catch {
    throw invalid("Invalid JSON payload received.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalid("Invalid JSON payload received. Expected an object.");
  }
  return parsed as Record<string, unknown>;
}
