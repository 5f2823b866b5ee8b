/**
 * Where the local stack serves each API (README "Ports"): the global API with the web app, and each
 * region's API on its own Hosting site. Calls about an organisation go to its region's API, as the web's
 * do; the organisation's region is read once from the global database (routing data).
 */
import { initializeApp, type App } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { LOCAL_REGION_API_PORTS } from "@alpvault/contracts/local";
import { REGION_IDS, isRegionId, type RegionId } from "@alpvault/contracts/regions";
import { stackEnv } from "./stack-env";

export type ApiHost = "global" | RegionId;

/**
 * The base URL of an API as the product names it (the regional domains it hands out: `domain` of a
 * subscription's region, 421 answers, checkout pages) and as the local stack's Hosting serves it.
 */
export function namedOrigin(host: ApiHost): string {
  return host === "global" ? stackEnv.webUrl : `http://127.0.0.1:${LOCAL_REGION_API_PORTS[host]}`;
}

/** Where this test file's APIs are served instead of the stack's Hosting (the product in the test's process). */
let servedHere: Record<ApiHost, string> | undefined;

/** Sends this file's API calls to the APIs it serves itself (`tests/support/in-process/`). */
export function serveApisHere(origins: Record<ApiHost, string> | undefined): void {
  servedHere = origins;
}

/** The base URL (without `/v1`) of an API: the one this file serves, else the local stack's. */
export function apiOrigin(host: ApiHost): string {
  return servedHere?.[host] ?? namedOrigin(host);
}

/**
 * A URL the product handed out for one of its APIs (a checkout page, a region's API base), aimed at the API
 * that serves it in this file: the same URL through the stack, or the file's own server.
 */
export function servedUrl(url: string): string {
  if (!servedHere) return url;
  const parsed = new URL(url);
  for (const host of ["global", ...REGION_IDS] as ApiHost[]) {
    if (parsed.origin === new URL(namedOrigin(host)).origin) {
      return `${servedHere[host]}${parsed.pathname}${parsed.search}`;
    }
  }
  return url;
}

let app: App | undefined;
const regions = new Map<string, RegionId | undefined>();

/** The region of an organisation (undefined when there is none with that id). */
export async function regionOf(organizationId: string): Promise<RegionId | undefined> {
  if (regions.has(organizationId)) return regions.get(organizationId);
  app ??= initializeApp({ projectId: stackEnv.projectId }, "test-region-routing");
  const regionId: unknown = /^[A-Za-z0-9_-]{1,128}$/.test(organizationId)
    ? (await getFirestore(app).collection("organizations").doc(organizationId).get()).get("regionId")
    : undefined;
  const found = isRegionId(regionId) ? regionId : undefined;
  // Only found regions are kept: an id may name an organisation later.
  if (found) regions.set(organizationId, found);
  return found;
}

/**
 * The API a call goes to, as the web sends it: an organisation's calls to its region (Switzerland's when
 * there is no such organisation, which answers that), the region choice to the chosen region, the rest to
 * the global API.
 */
export async function hostFor(path: string, method: string, body: string | undefined): Promise<ApiHost> {
  const organization = /^\/organizations\/([^/?]+)/.exec(path);
  if (organization?.[1]) return (await regionOf(decodeURIComponent(organization[1]))) ?? "ch";
  if (/^\/organizations\/?(\?|$)/.test(path) && method === "POST") {
    let regionId: unknown;
    try {
      regionId = (JSON.parse(body ?? "{}") as { regionId?: unknown }).regionId;
    } catch {
      regionId = undefined;
    }
    return isRegionId(regionId) ? regionId : "ch";
  }
  return "global";
}
