/**
 * V4 signed URLs (XML API, path style `GET /<bucket>/<object>?X-Goog-Algorithm=GOOG4-RSA-SHA256&…`), checked
 * as Cloud Storage checks them:
 * https://cloud.google.com/storage/docs/access-control/signed-urls and
 * https://cloud.google.com/storage/docs/authentication/canonical-requests.
 *
 * The canonical request is rebuilt from what arrived (method, path as sent, every query parameter but the
 * signature sorted and RFC 3986-encoded, the signed headers' values (the host without its port: production's
 * has none, and the official client signs an endpoint's host without it), `UNSIGNED-PAYLOAD`), hashed into the
 * string to sign with the date and credential scope, and the hex signature checked with the public key of
 * the credential's service account. A link past `X-Goog-Date + X-Goog-Expires`, not yet valid, or with an
 * expiry beyond 7 days is refused. Errors are the XML API's `<Error>` documents.
 */
import { createHash, createPublicKey, createVerify, type KeyObject } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A service account whose signatures the emulator accepts: its address and its public (or private) key. */
export interface SigningAccount {
  clientEmail: string;
  /** PEM: the public key, or the private key (its public half is used). */
  key: string;
}

export class SignedUrlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = "SignedUrlError";
  }

  /** The XML API's error document. */
  xml(): string {
    const escape = (text: string) =>
      text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    return (
      `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${escape(this.code)}</Code>` +
      `<Message>${escape(this.message)}</Message>` +
      (this.details ? `<Details>${escape(this.details)}</Details>` : "") +
      `</Error>`
    );
  }
}

/** True when the query carries a V4 signature (the request is a signed URL). */
export function isSignedUrl(query: URLSearchParams): boolean {
  return query.has("X-Goog-Signature") || query.has("X-Goog-Algorithm");
}

const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;

/** RFC 3986 percent-encoding, as Cloud Storage's canonical query string uses. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `20261124T184852Z` → epoch milliseconds, or NaN. */
function parseGoogDate(value: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
}

function malformed(details: string): SignedUrlError {
  return new SignedUrlError(
    400,
    "AuthorizationQueryParametersError",
    "Query-string authentication version 4 requires the X-Goog-Algorithm, X-Goog-Credential, X-Goog-Date, X-Goog-SignedHeaders, X-Goog-Signature and X-Goog-Expires parameters.",
    details,
  );
}

/**
 * Checks the signed URL of `request` (path as sent and query); throws a `SignedUrlError` when it does not
 * hold. `accounts` are read on each call (a key may change while the emulator runs).
 */
export function verifySignedUrl(
  request: IncomingMessage,
  path: string,
  query: URLSearchParams,
  accounts: () => SigningAccount[],
  now = Date.now(),
): void {
  const algorithm = query.get("X-Goog-Algorithm");
  const credential = query.get("X-Goog-Credential");
  const date = query.get("X-Goog-Date");
  const expires = query.get("X-Goog-Expires");
  const signedHeaders = query.get("X-Goog-SignedHeaders");
  const signature = query.get("X-Goog-Signature");
  if (!algorithm || !credential || !date || !expires || !signedHeaders || !signature) {
    throw malformed("A signed URL parameter is missing.");
  }
  if (algorithm !== "GOOG4-RSA-SHA256") {
    throw malformed(`The algorithm ${algorithm} is not supported.`);
  }
  const scope = credential.split("/");
  if (scope.length !== 5 || scope[2] !== "auto" || scope[3] !== "storage" || scope[4] !== "goog4_request") {
    throw malformed("The credential scope is malformed.");
  }
  const signedAt = parseGoogDate(date);
  const lifetime = /^\d+$/.test(expires) ? Number(expires) : NaN;
  if (Number.isNaN(signedAt) || scope[1] !== date.slice(0, 8)) throw malformed("X-Goog-Date is malformed.");
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > MAX_EXPIRES_SECONDS) {
    throw malformed("X-Goog-Expires must be between 1 and 604800 seconds.");
  }
  if (now < signedAt - 60_000) {
    throw new SignedUrlError(400, "AuthorizationQueryParametersError", "Request is not yet valid.");
  }
  if (now > signedAt + lifetime * 1000) {
    throw new SignedUrlError(400, "ExpiredToken", "Invalid argument.", `Request has expired: ${date}`);
  }
  const headerNames = signedHeaders.split(";");
  if (!headerNames.includes("host")) throw malformed("The host header must be signed.");
  const canonicalHeaders = headerNames
    .map((name) => {
      const value = request.headers[name];
      let text = Array.isArray(value) ? value.join(",") : (value ?? "");
      // Production's host has no port; the official client signs a custom endpoint's host without its port.
      if (name === "host") text = text.replace(/:\d+$/, "");
      return `${name}:${text.trim().replace(/\s{2,}/g, " ")}\n`;
    })
    .join("");
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== "X-Goog-Signature")
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalRequest = [
    request.method ?? "GET",
    path,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const stringToSign = [
    algorithm,
    date,
    scope.slice(1).join("/"),
    createHash("sha256").update(canonicalRequest).digest("hex"),
  ].join("\n");
  const account = accounts().find((candidate) => candidate.clientEmail === scope[0]);
  let key: KeyObject | undefined;
  try {
    key = account ? createPublicKey(account.key) : undefined;
  } catch {
    key = undefined;
  }
  const valid =
    key !== undefined &&
    /^[0-9a-f]+$/i.test(signature) &&
    createVerify("RSA-SHA256").update(stringToSign).verify(key, Buffer.from(signature, "hex"));
  if (!valid) {
    throw new SignedUrlError(
      403,
      "SignatureDoesNotMatch",
      "Access denied.",
      "The request signature we calculated does not match the signature you provided. Check your Google secret key and signing method.",
    );
  }
}
