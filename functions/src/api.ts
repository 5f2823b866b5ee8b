/**
 * The product's API as it is deployed: one Express app per host (the global API, and each region's), with
 * production's identity and App Check verifiers. `index.ts` serves it from Cloud Functions; a test that runs
 * the product in its own process serves the very same app.
 */
import type { Express } from "express";
import type { RegionId } from "@alpvault/contracts/regions";
import { loadRuntimeConfig, webOrigins } from "./config";
import { createApi } from "./http/app";
import { appCheckVerifier, firebaseIdentityVerifier } from "./http/verifiers";

/**
 * The API of `servingRegion` (null: the global API). Reads the runtime configuration, so it is built at
 * run time, not when the functions are analysed for a deploy.
 */
export function productApi(servingRegion: RegionId | null): Express {
  return createApi({
    servingRegion,
    corsOrigins: servingRegion ? webOrigins() : [],
    identity: firebaseIdentityVerifier(),
    appCheck: appCheckVerifier(loadRuntimeConfig()),
  });
}
