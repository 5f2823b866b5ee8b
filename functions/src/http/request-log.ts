import type { Request, RequestHandler, Response } from "express";
import * as logs from "../logs";

interface RouteLocals {
  /** The route already matched when the request reached our app (the Functions framework's own '/*'). */
  outerRoute?: unknown;
  caller?: { uid: string };
}

/**
 * The route pattern our router matched (`/v1/health`), never the raw URL: no query strings and no ids
 * typed by users reach the logs. Unmatched requests are labelled with the router's mount path.
 */
export function routeLabel(request: Request, response: Response): string {
  const locals = response.locals as RouteLocals;
  const route = request.route as { path?: unknown } | undefined;
  if (route && route !== locals.outerRoute && typeof route.path === "string")
    return `${request.baseUrl}${route.path}`;
  return `${request.baseUrl || "/"} (unmatched)`;
}

/** Logs one line per request when it completes: method, route, status, duration, caller uid. */
export const requestLog: RequestHandler = (request, response, next) => {
  const started = process.hrtime.bigint();
  const locals = response.locals as RouteLocals;
  locals.outerRoute = request.route;
  const baseUrl = request.baseUrl;
  response.on("finish", () => {
    logs.requestCompleted({
      method: request.method,
      route: routeLabel(Object.assign(Object.create(request) as Request, { baseUrl }), response),
      status: response.statusCode,
      durationMs: Number((process.hrtime.bigint() - started) / 1_000_000n),
      uid: locals.caller?.uid,
    });
  });
  next();
};
