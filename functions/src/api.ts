/**
 * The product's API as it is deployed: one Express app per host (the global API, and each region's), with
 * production's identity and App Check verifiers. This is where the product's routes are composed — every
 * area's routes with the services of the host's region — onto the transport kit of `http/`, which knows no
 * product area. `index.ts` serves it from Cloud Functions; a test that runs the product in its own process
 * serves the very same app.
 */
import type { Express, Router } from "express";
import type { RegionId } from "@alpvault/contracts/regions";
import { loadRuntimeConfig, webOrigins } from "./config";
import { createApi } from "./http/app";
import type { AppCheckVerifier, IdentityVerifier } from "./http/authenticate";
import { appCheckVerifier, firebaseIdentityVerifier } from "./http/verifiers";
import type { RefusedAttempt } from "./lib/caller";
import { auditRoutes } from "./audit/routes";
import { billingPublicRoutes, billingRoutes } from "./billing/routes";
import { billingServices } from "./billing/wiring";
import { drillRoutes } from "./drills/routes";
import { exportRoutes } from "./export/routes";
import { integrityRoutes } from "./integrity/routes";
import { organizationRoutes } from "./organizations/routes";
import { productServices } from "./organizations/wiring";
import { policyRoutes } from "./policies/routes";
import { recoveryRoutes } from "./recovery/routes";
import { resourceRoutes } from "./resources/routes";
import { searchRoutes } from "./search/routes";
import { secretRoutes } from "./secrets/routes";
import { secretServices } from "./secrets/wiring";
import { systemRoutes } from "./system/routes";

export interface ProductRoutes {
  /** Behind authentication: every product area. */
  routers: Router[];
  /** Before authentication, checked by their own means: the payment webhook and the sandbox payment page. */
  publicRouters: Router[];
  /** A valid ID token refused for not being a verified Google sign-in: the path's organisation's audit log. */
  onRefused: (attempt: RefusedAttempt) => Promise<void>;
}

/**
 * The routes of the API of `servingRegion` (null: the global API), with the services of that region: each
 * region's API is the only one that reads or changes its organisations' data; the global API serves the
 * routes that belong to no organisation and sends an organisation's calls to its region (421).
 */
export function productRoutes(servingRegion: RegionId | null): ProductRoutes {
  const services = () => productServices(servingRegion);
  const organizations = () => services().organizations;
  return {
    routers: [
      systemRoutes(),
      organizationRoutes(organizations),
      resourceRoutes(services),
      auditRoutes(organizations),
      policyRoutes(services),
      secretRoutes(() => secretServices(servingRegion)),
      billingRoutes(() => billingServices(servingRegion)),
      searchRoutes(organizations),
      recoveryRoutes(organizations),
      drillRoutes(organizations),
      exportRoutes(organizations),
      integrityRoutes(organizations),
    ],
    publicRouters: [billingPublicRoutes(() => billingServices(servingRegion))],
    onRefused: (attempt) => organizations().recordRefusedAccess(attempt),
  };
}

export interface ApiVerifiers {
  identity: IdentityVerifier;
  appCheck: AppCheckVerifier;
}

/** The product's API of `servingRegion` with the verifiers given (a test that only reads the route table). */
export function composeApi(
  servingRegion: RegionId | null,
  verifiers: ApiVerifiers,
  corsOrigins: readonly string[] = [],
): Express {
  return createApi({ ...verifiers, ...productRoutes(servingRegion), corsOrigins });
}

/**
 * The API of `servingRegion` (null: the global API). Reads the runtime configuration, so it is built at
 * run time, not when the functions are analysed for a deploy.
 */
export function productApi(servingRegion: RegionId | null): Express {
  return composeApi(
    servingRegion,
    { identity: firebaseIdentityVerifier(), appCheck: appCheckVerifier(loadRuntimeConfig()) },
    servingRegion ? webOrigins() : [],
  );
}
