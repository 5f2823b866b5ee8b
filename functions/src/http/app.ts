import cors from "cors";
import express, { type Express, type Router } from "express";
import { APP_CHECK_HEADER } from "@alpvault/contracts/app-check";
import type { RegionId } from "@alpvault/contracts/regions";
import { auditRoutes } from "../audit/routes";
import { billingPublicRoutes, billingRoutes } from "../billing/routes";
import { billingServices } from "../billing/wiring";
import { secretServices } from "../secrets/wiring";
import { organizationRoutes } from "../organizations/routes";
import { productServices } from "../organizations/wiring";
import { policyRoutes } from "../policies/routes";
import { resourceRoutes } from "../resources/routes";
import { exportRoutes } from "../export/routes";
import { recoveryRoutes } from "../recovery/routes";
import { drillRoutes } from "../drills/routes";
import { integrityRoutes } from "../integrity/routes";
import { searchRoutes } from "../search/routes";
import { secretRoutes } from "../secrets/routes";
import { systemRoutes } from "../system/routes";
import type { RefusedAttempt } from "../lib/caller";
import { authenticate, type AppCheckVerifier, type IdentityVerifier } from "./authenticate";
import { bodySizeLimit, jsonBody } from "./body";
import { errorHandler, notFoundHandler } from "./error-handler";
import { requestLog } from "./request-log";

export interface ApiDependencies {
  /**
   * The region whose organisations this API serves: each region's API runs in that region and is the only
   * one that reads or changes its organisations' data; the global API (null, the default) serves the
   * routes that belong to no organisation and sends an organisation's calls to its region (421).
   */
  servingRegion?: RegionId | null;
  /** The web app's origins, answered cross-origin (regional APIs are on hosts of their own). */
  corsOrigins?: readonly string[];
  identity: IdentityVerifier;
  appCheck: AppCheckVerifier;
  /**
   * Told of every valid ID token refused for not being a verified Google sign-in (default: the audit log
   * of the organisation in the path).
   */
  onRefused?: (attempt: RefusedAttempt) => Promise<void>;
  /** The routers mounted under /v1 behind authentication (default: every product area). */
  routers?: Router[];
  /**
   * Routers mounted under /v1 before authentication (default: the payment webhook and sandbox page):
   * they check their callers themselves (a webhook signature).
   */
  publicRouters?: Router[];
}

/** The /v1 JSON API. Every route sits behind `authenticate`; every error leaves as `{code, message}`. */
export function createApi(deps: ApiDependencies): Express {
  const serving = deps.servingRegion ?? null;
  const services = () => productServices(serving);
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
  for (const router of deps.publicRouters ?? [billingPublicRoutes(() => billingServices(serving))]) {
    v1.use(router);
  }
  v1.use(
    authenticate({
      identity: deps.identity,
      appCheck: deps.appCheck,
      onRefused: deps.onRefused ?? ((attempt) => services().organizations.recordRefusedAccess(attempt)),
    }),
  );
  v1.use(jsonBody());
  const routers = deps.routers ?? [
    systemRoutes(),
    organizationRoutes(() => services().organizations),
    resourceRoutes(services),
    auditRoutes(() => services().organizations),
    policyRoutes(services),
    secretRoutes(() => secretServices(serving)),
    billingRoutes(() => billingServices(serving)),
    searchRoutes(() => services().organizations),
    recoveryRoutes(() => services().organizations),
    drillRoutes(() => services().organizations),
    exportRoutes(() => services().organizations),
    integrityRoutes(() => services().organizations),
  ];
  for (const router of routers) v1.use(router);
  v1.use(notFoundHandler);

  app.use("/v1", v1);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
