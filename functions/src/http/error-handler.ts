import type { ErrorRequestHandler, RequestHandler } from "express";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { AppError } from "./app-error";
import { BODY_MESSAGES } from "./body";
import * as logs from "../logs";
import { routeLabel } from "./request-log";

/**
 * Client errors raised before a handler runs: body parsing (express.json: a status and a `type`) and the
 * router's decoding of a path parameter (`%E0%A4%A`, `%ED%A0%80`: a URIError with status 400).
 */
function requestError(error: unknown): AppError | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (typeof status !== "number" || status < 400 || status >= 500) return undefined;
  if (type === "entity.parse.failed") return AppError.badRequest("The request body is not valid JSON.");
  if (type === "entity.too.large") return new AppError(413, BODY_MESSAGES.tooLarge);
  if (typeof type === "string") return new AppError(status, "The request body could not be read.");
  if (error instanceof URIError) return AppError.badRequest("The request path is not valid.");
  return undefined;
}

export const notFoundHandler: RequestHandler = (request, _response, next) => {
  next(AppError.notFound(`No such API route: ${request.method} ${request.baseUrl}${request.path}`));
};

/** Maps every error to the spec's `{code, message}`; anything unknown is logged and answered with 500. */
export const errorHandler: ErrorRequestHandler = (error: unknown, request, response, _next) => {
  const route = `${request.method} ${routeLabel(request, response)}`;
  const known = error instanceof AppError ? error : requestError(error);
  if (known) {
    if (known.code === 401 || known.code === 403) {
      logs.requestRejected({ route, status: known.code, reason: known.message });
    }
    response.status(known.code).json(known.toJSON());
    return;
  }
  logs.unexpectedError({ route, error });
  response.status(UNEXPECTED_ERROR.code).json(UNEXPECTED_ERROR);
};
