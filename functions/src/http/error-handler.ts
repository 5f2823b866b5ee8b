import type { ErrorRequestHandler, RequestHandler } from "express";
import { UNEXPECTED_ERROR, type ApiError } from "@alpvault/contracts/errors";
import { DomainError, type ErrorKind } from "../lib/errors";
import { BODY_MESSAGES } from "./body";
import * as logs from "../logs";
import { routeLabel } from "./request-log";

/** The HTTP status of each kind of domain error: the `code` of the error object (docs/requirements.md#errors-and-messages). */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "too-large": 413,
  "unsupported-format": 415,
  misdirected: 421,
  unavailable: 503,
};

/** The answer to a domain error: its status and message (never its cause). */
export function apiErrorOf(error: DomainError): ApiError {
  return { code: STATUS_OF_KIND[error.kind], message: error.message };
}

/**
 * Client errors raised before a handler runs: body parsing (express.json: a status and a `type`) and the
 * router's decoding of a path parameter (`%E0%A4%A`, `%ED%A0%80`: a URIError with status 400).
 */
function requestError(error: unknown): ApiError | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (typeof status !== "number" || status < 400 || status >= 500) return undefined;
  if (type === "entity.parse.failed") return { code: 400, message: "The request body is not valid JSON." };
  if (type === "entity.too.large") return { code: 413, message: BODY_MESSAGES.tooLarge };
  if (typeof type === "string") return { code: status, message: "The request body could not be read." };
  if (error instanceof URIError) return { code: 400, message: "The request path is not valid." };
  return undefined;
}

export const notFoundHandler: RequestHandler = (request, _response, next) => {
  next(DomainError.notFound(`No such API route: ${request.method} ${request.baseUrl}${request.path}`));
};

/** Maps every error to `{code, message}`; anything unknown is logged and answered with 500. */
export const errorHandler: ErrorRequestHandler = (error: unknown, request, response, _next) => {
  const route = `${request.method} ${routeLabel(request, response)}`;
  const known = error instanceof DomainError ? apiErrorOf(error) : requestError(error);
  if (known) {
    if (known.code === 401 || known.code === 403) {
      logs.requestRejected({ route, status: known.code, reason: known.message });
    }
    response.status(known.code).json(known);
    return;
  }
  logs.unexpectedError({ route, error });
  response.status(UNEXPECTED_ERROR.code).json(UNEXPECTED_ERROR);
};
