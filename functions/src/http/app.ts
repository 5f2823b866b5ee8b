import cors from "cors";
import express, { type Express, type Router } from "express";
import { APP_CHECK_HEADER } from "@alpvault/contracts/app-check";
import type { RefusedAttempt } from "../lib/caller";
import { authenticate, type AppCheckVerifier, type IdentityVerifier } from "./authenticate";
import { bodySizeLimit, jsonBody } from "./body";
import { errorHandler, notFoundHandler } from "./error-handler";
import { requestLog } from "./request-log";

export interface ApiDependencies {
  /** The web app's origins, answered cross-origin (regional APIs are on hosts of their own). */
  corsOrigins?: readonly string[];
  identity: IdentityVerifier;
  appCheck: AppCheckVerifier;
  /** Told of every valid ID token refused for not being a verified Google sign-in. */
  onRefused: (attempt: RefusedAttempt) => Promise<void>;
  /** The routers mounted under /v1 behind authentication. */
  routers: Router[];
  /**
   * Routers mounted under /v1 before authentication (none unless given): they check their callers
   * themselves (a webhook signature).
   */
  publicRouters?: Router[];
}

/**
 * The /v1 JSON API around the routers it is given (the product's are composed in `api.ts`). Every route but
 * the public ones sits behind `authenticate`; every error leaves as `{code, message}`.
 */
export function createApi(deps: ApiDependencies): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", true);
  if (deps.corsOrigins && deps.corsOrigins.length > 0) {
    // Answered before anything else, preflights included: they carry no tokens.
    app.use(
      cors({
        origin: [...deps.corsOrigins],
        methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
        allowedHeaders: ["Authorization", "Content-Type", APP_CHECK_HEADER],
        exposedHeaders: ["Content-Disposition"],
        maxAge: 600,
      }),
    );
  }

  const v1 = express.Router();
  v1.use(requestLog);
  v1.use(bodySizeLimit);
  for (const router of deps.publicRouters ?? []) v1.use(router);
  v1.use(
    authenticate({
      identity: deps.identity,
      appCheck: deps.appCheck,
      onRefused: deps.onRefused,
    }),
  );
  v1.use(jsonBody());
  for (const router of deps.routers) v1.use(router);
  v1.use(notFoundHandler);

  app.use("/v1", v1);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
