import type { ErrorRequestHandler, RequestHandler } from "express";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { AppError } from "./app-error";
import * as logs from "../logs";
import { routeLabel } from "./request-log";

/** Errors raised by body parsing (express.json) carry an HTTP status and a `type`. */
function parserError(error: unknown): AppError | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (typeof status !== "number" || typeof type !== "string") return undefined;
  if (type === "entity.parse.failed") return AppError.badRequest("The request body is not valid JSON.");
  if (type === "entity.too.large") return new AppError(413, "The request body is too large.");
  if (status >= 400 && status < 500) return new AppError(status, "The request body could not be read.");
  return undefined;
}

export const notFoundHandler: RequestHandler = (request, _response, next) => {
  next(AppError.notFound(`No such API route: ${request.method} ${request.baseUrl}${request.path}`));
};

/** Maps every error to the spec's `{code, message}`; anything unknown is logged and answered with 500. */
export const errorHandler: ErrorRequestHandler = (error: unknown, request, response, _next) => {
  const route = `${request.method} ${routeLabel(request, response)}`;
  const known = error instanceof AppError ? error : parserError(error);
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
