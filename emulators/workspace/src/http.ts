/**
 * HTTP plumbing shared by every API the emulator serves: Google's error body, a small router keyed by
 * Google's method ids (`gmail.users.messages.get`), request bodies and `fields` partial responses.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../../kit/src/index";
import { inboundPacer, type InboundPacing } from "./pacing";

/** One entry of Google's `error.errors[]`. */
export interface GoogleErrorItem {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
}

const STATUS_BY_CODE: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ALREADY_EXISTS",
  412: "FAILED_PRECONDITION",
  413: "OUT_OF_RANGE",
  416: "OUT_OF_RANGE",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  501: "UNIMPLEMENTED",
  503: "UNAVAILABLE",
};

/**
 * An error answered the way Google's JSON APIs answer:
 * `{error: {code, message, errors: [{message, domain, reason}], status}}`.
 */
export class GoogleApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly domain: string;
  readonly status: string;
  readonly headers: Record<string, string>;
  readonly extra: Partial<GoogleErrorItem>;
  readonly details?: unknown[];

  constructor(
    code: number,
    message: string,
    reason: string,
    options: {
      domain?: string;
      status?: string;
      headers?: Record<string, string>;
      extra?: Partial<GoogleErrorItem>;
      details?: unknown[];
    } = {},
  ) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.domain = options.domain ?? "global";
    this.status = options.status ?? STATUS_BY_CODE[code] ?? "UNKNOWN";
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
    this.details = options.details;
  }

  body(): unknown {
    return {
      error: {
        code: this.code,
        message: this.message,
        errors: [{ message: this.message, domain: this.domain, reason: this.reason, ...this.extra }],
        status: this.status,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

export const badRequest = (message: string, reason = "badRequest"): GoogleApiError =>
  new GoogleApiError(400, message, reason);
export const invalidArgument = (message: string): GoogleApiError =>
  new GoogleApiError(400, message, "invalidArgument");
export const notFound = (message = "Requested entity was not found.", reason = "notFound"): GoogleApiError =>
  new GoogleApiError(404, message, reason);
export const forbidden = (message: string, reason = "forbidden"): GoogleApiError =>
  new GoogleApiError(403, message, reason);

export { sendJson };

export function sendGoogleError(response: ServerResponse, error: GoogleApiError): void {
  sendJson(response, error.code, error.body(), error.headers);
}

/** Everything a route handler needs about one request. */
export interface RequestContext {
  request: IncomingMessage;
  response: ServerResponse;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /**
   * The largest body this call accepts and the error above it (default: 64 MiB, 413 uploadTooLarge). Set
   * before the body is read.
   */
  bodyLimit?: BodyLimit;
  /** Reads the body at the caller's upload bandwidth and counts it (the latency model). */
  inbound?: InboundPacing;
  /** The raw body, read once and cached. */
  body(): Promise<Buffer>;
  /** Set by a test-only `corrupt-upload` fault: the upload's stored content gets one byte altered. */
  corruptUpload?: boolean;
  /** The body as JSON (an empty body is `{}`); a malformed body is Google's 400 parse error. */
  json(): Promise<Record<string, unknown>>;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface BodyLimit {
  maxBytes: number;
  tooLarge: () => GoogleApiError;
}

const DEFAULT_BODY_LIMIT: BodyLimit = {
  maxBytes: MAX_BODY_BYTES,
  tooLarge: () => new GoogleApiError(413, "Request entity too large.", "uploadTooLarge"),
};

/**
 * Reads a request body. Above the limit the rest is read and dropped, then the limit's error is thrown, so
 * the caller still gets Google's answer instead of a dropped connection.
 */
export function readBody(
  request: IncomingMessage,
  limit: BodyLimit = DEFAULT_BODY_LIMIT,
  pacing?: InboundPacing,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const paced = inboundPacer(request, pacing);
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      paced(chunk.length);
      if (size > limit.maxBytes) {
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (size > limit.maxBytes) reject(limit.tooLarge());
      else resolve(Buffer.concat(chunks));
    });
    request.on("error", reject);
  });
}

export function parseJsonBody(buffer: Buffer): Record<string, unknown> {
  if (buffer.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(buffer.toString("utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("not an object");
    }
    return parsed as Record<string, unknown>;
  } catch {
    throw new GoogleApiError(400, "Invalid JSON payload received.", "parseError");
  }
}

export function createContext(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  params: Record<string, string>,
): RequestContext {
  let cached: Promise<Buffer> | undefined;
  const context: RequestContext = {
    request,
    response,
    method: request.method ?? "GET",
    path: url.pathname,
    params,
    query: url.searchParams,
    body: () => (cached ??= readBody(request, context.bodyLimit, context.inbound)),
    json: async () => parseJsonBody(await context.body()),
  };
  return context;
}

export type Handler<P = unknown> = (context: RequestContext, principal: P) => Promise<unknown> | unknown;

/** Marks a handler that wrote the response itself (media downloads, redirects, uploads). */
export const RESPONDED = Symbol("responded");

export interface RouteSpec<P = unknown> {
  method: string;
  /** `:name` segments; `:name*` matches the rest of the path (slashes included). */
  path: string;
  /** Google's method id, e.g. `gmail.users.messages.get`: the key for quotas, faults and stats. */
  id: string;
  /** The call needs a bearer token with one of these scopes. Omitted: no token needed (emulator-only). */
  scopes?: readonly string[];
  /** The method id quotas charge when it depends on the request (`files.get?alt=media` is a download). */
  quotaId?: (context: RequestContext) => string;
  /** Renders this call's errors (the dispatcher's too: token, scope, quota, faults) in its API's shape. */
  renderError?: (error: GoogleApiError) => GoogleApiError;
  handler: Handler<P>;
}

export interface Route<P = unknown> extends RouteSpec<P> {
  pattern: RegExp;
  keys: string[];
}

export class Router<P = unknown> {
  readonly routes: Route<P>[] = [];

  add(spec: RouteSpec<P>): void {
    const keys: string[] = [];
    const source = spec.path
      .split("/")
      .map((segment) => {
        const greedy = /^:(\w+)\*$/.exec(segment);
        if (greedy) {
          keys.push(greedy[1] as string);
          return "(.+)";
        }
        // Parameters (":messageId") and literals, Google's ":verb" suffixes included ("files:batch").
        return segment.replace(/^:(\w+)|:(\w+)$|([^:]+)/g, (all: string, key?: string, verb?: string) => {
          if (key) {
            keys.push(key);
            return "([^/:]+)";
          }
          if (verb) return `:${verb}`;
          return all.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        });
      })
      .join("/");
    this.routes.push({ ...spec, pattern: new RegExp(`^${source}/?$`), keys });
  }

  match(method: string, path: string): { route: Route<P>; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((key, index) => {
        params[key] = decodeURIComponent(found[index + 1] as string);
      });
      return { route, params };
    }
    return undefined;
  }
}

/**
 * Google's `fields` partial response: `fields=nextPageToken,files(id,name,owners/emailAddress)`.
 * Selections apply to objects and to each element of arrays; `*` keeps everything at that level.
 */
export function applyFields(value: unknown, fields: string | null | undefined): unknown {
  if (!fields || fields.trim() === "" || fields.trim() === "*") return value;
  return select(value, parseFields(fields));
}

type FieldTree = Map<string, FieldTree | true>;

export function parseFields(text: string): FieldTree {
  let position = 0;
  const parseList = (): FieldTree => {
    const tree: FieldTree = new Map();
    while (position < text.length) {
      const char = text[position];
      if (char === ")") return tree;
      if (char === "," || char === " ") {
        position += 1;
        continue;
      }
      let name = "";
      while (position < text.length && !",()".includes(text[position] as string)) {
        name += text[position];
        position += 1;
      }
      name = name.trim();
      let sub: FieldTree | true = true;
      if (text[position] === "(") {
        position += 1;
        sub = parseList();
        if (text[position] !== ")") throw badRequest(`Invalid field selection ${text}`, "invalidParameter");
        position += 1;
      }
      // a/b/c is a(b(c))
      const parts = name.split("/").filter(Boolean);
      if (parts.length === 0) throw badRequest(`Invalid field selection ${text}`, "invalidParameter");
      let node: FieldTree = tree;
      parts.forEach((part, index) => {
        const last = index === parts.length - 1;
        if (last) {
          const existing = node.get(part);
          node.set(part, existing instanceof Map && sub instanceof Map ? merge(existing, sub) : sub);
        } else {
          let next = node.get(part);
          if (!(next instanceof Map)) {
            next = new Map();
            node.set(part, next);
          }
          node = next;
        }
      });
    }
    return tree;
  };
  const tree = parseList();
  if (position < text.length) throw badRequest(`Invalid field selection ${text}`, "invalidParameter");
  return tree;
}

function merge(a: FieldTree, b: FieldTree): FieldTree {
  for (const [key, value] of b) {
    const existing = a.get(key);
    a.set(key, existing instanceof Map && value instanceof Map ? merge(existing, value) : value);
  }
  return a;
}

function select(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => select(item, tree));
  if (typeof value !== "object" || value === null) return value;
  if (tree.has("*")) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (!(key in source)) continue;
    out[key] = sub === true ? source[key] : select(source[key], sub);
  }
  return out;
}

/** Reads a Google-style integer query parameter with bounds, or answers 400 like Google does. */
export function intParam(
  query: URLSearchParams,
  name: string,
  options: { default: number; min?: number; max?: number },
): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return options.default;
  const value = Number(raw);
  if (!Number.isInteger(value))
    throw invalidArgument(
      `Invalid value '${raw}'. Values must match the following regular expression: '-?\\d+'`,
    );
  if (options.min !== undefined && value < options.min) {
    throw invalidArgument(`Invalid value '${raw}' for ${name}: must be at least ${options.min}`);
  }
  return options.max !== undefined ? Math.min(value, options.max) : value;
}

export function boolParam(query: URLSearchParams, name: string, fallback = false): boolean {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw invalidArgument(`Invalid value '${raw}'. Valid values are: 'true', 'false'`);
}
