import express, { type Express, type Router } from "express";
import { auditRoutes } from "../audit/routes";
import { billingPublicRoutes, billingRoutes } from "../billing/routes";
import { organizationRoutes } from "../organizations/routes";
import { productServices } from "../organizations/wiring";
import { policyRoutes } from "../policies/routes";
import { resourceRoutes } from "../resources/routes";
import { exportRoutes } from "../export/routes";
import { recoveryRoutes } from "../recovery/routes";
import { searchRoutes } from "../search/routes";
import { secretRoutes } from "../secrets/routes";
import { systemRoutes } from "../system/routes";
import {
  authenticate,
  type AppCheckVerifier,
  type IdentityVerifier,
  type RefusedAttempt,
} from "./authenticate";
import { bodySizeLimit, jsonBody } from "./body";
import { errorHandler, notFoundHandler } from "./error-handler";
import { requestLog } from "./request-log";

export interface ApiDependencies {
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
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", true);

  const v1 = express.Router();
  v1.use(requestLog);
  v1.use(bodySizeLimit);
  for (const router of deps.publicRouters ?? [billingPublicRoutes()]) v1.use(router);
  v1.use(
    authenticate({
      identity: deps.identity,
      appCheck: deps.appCheck,
      onRefused:
        deps.onRefused ?? ((attempt) => productServices().organizations.recordRefusedAccess(attempt)),
    }),
  );
  v1.use(jsonBody());
  const routers = deps.routers ?? [
    systemRoutes(),
    organizationRoutes(() => productServices().organizations),
    resourceRoutes(productServices),
    auditRoutes(() => productServices().organizations),
    policyRoutes(productServices),
    secretRoutes(),
    billingRoutes(),
    searchRoutes(() => productServices().organizations),
    recoveryRoutes(() => productServices().organizations),
    exportRoutes(() => productServices().organizations),
  ];
  for (const router of routers) v1.use(router);
  v1.use(notFoundHandler);

  app.use("/v1", v1);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
