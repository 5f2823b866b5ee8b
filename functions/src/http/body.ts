/**
 * Request bodies: at most 1 MiB, JSON only, and of a shape no handler can be tripped by. The Cloud
 * Functions runtime reads and parses the body before the function runs (JSON, text, form or raw bytes, up to
 * 32 MB), so these checks run on what it parsed and on the bytes it kept (`rawBody`); when the API runs
 * without that runtime (tests), `express.json` parses with the same limit.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { DomainError } from "../lib/errors";

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Deeper than any request we define (the deepest is 2 levels) by a wide margin. */
export const BODY_MAX_DEPTH = 32;
/** Keys that mean something to JavaScript objects; no request of ours uses them. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export const BODY_MESSAGES = {
  tooLarge: "The request body is too large.",
  notJson: "Send the request body as JSON (Content-Type: application/json).",
  tooDeep: "The request body is nested too deeply.",
  forbiddenKey: "The request body has a field name that is not allowed.",
  notUnicode: "The request body contains text that is not valid Unicode.",
} as const;

/** The body's size: the bytes the runtime kept, else the declared length; undefined when not known yet. */
function bodyLength(request: Request): number | undefined {
  const raw = (request as Request & { rawBody?: unknown }).rawBody;
  if (Buffer.isBuffer(raw)) return raw.length;
  const header = request.get("content-length");
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** 413 before anything else runs when the body is larger than the limit, whoever parsed it. */
export const bodySizeLimit: RequestHandler = (request, _response, next) => {
  const length = bodyLength(request);
  next(
    length !== undefined && length > BODY_LIMIT_BYTES
      ? DomainError.tooLarge(BODY_MESSAGES.tooLarge)
      : undefined,
  );
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text Firestore and UTF-8 can hold: no half of a surrogate pair on its own. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** The first thing wrong with a parsed body's shape, walked without recursion, or undefined. */
export function bodyShapeProblem(body: unknown): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop() as { value: unknown; depth: number };
    if (typeof value === "string") {
      if (!isWellFormedText(value)) return BODY_MESSAGES.notUnicode;
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= BODY_MAX_DEPTH) return BODY_MESSAGES.tooDeep;
    if (Array.isArray(value)) {
      for (const item of value) pending.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key)) return BODY_MESSAGES.forbiddenKey;
      if (!isWellFormedText(key)) return BODY_MESSAGES.notUnicode;
      pending.push({ value: item, depth: depth + 1 });
    }
  }
  return undefined;
}

const parseJson = express.json({ limit: BODY_LIMIT_BYTES });

/**
 * For authenticated routes: a body, when there is one, is JSON (415 otherwise: the runtime would hand a
 * form as an object and text as a string), parsed, and of a safe shape (400). A request without a body
 * reads as `{}`, whatever the runtime left there.
 */
export function jsonBody(): RequestHandler[] {
  const requireJson = (request: Request, _response: Response, next: NextFunction) => {
    // `is` answers null when the request has no body at all; an empty one is none either.
    const type = request.is("application/json");
    if (type === null || bodyLength(request) === 0) {
      request.body = {};
      next();
      return;
    }
    next(type === false ? DomainError.unsupportedFormat(BODY_MESSAGES.notJson) : undefined);
  };
  const checkShape = (request: Request, _response: Response, next: NextFunction) => {
    const problem = bodyShapeProblem(request.body);
    next(problem ? DomainError.invalid(problem) : undefined);
  };
  return [requireJson, parseJson, checkShape];
}
