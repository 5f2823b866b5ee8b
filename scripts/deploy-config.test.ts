/**
 * What `firebase deploy` deploys, checked against the product's own lists: every Firestore database the
 * product uses (the global one and one per region) gets the deny-all rules and the indexes; every region
 * has its API site, API, dispatcher and workers, in its own location.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { LOCAL_REGION_API_PORTS } from "../contracts/src/local";
import { REGION_IDS, regionDatabaseId, regionLocation } from "../contracts/src/regions";
import { GLOBAL_REGION } from "../functions/src/config";
import { ROOT } from "./ports";

interface FirestoreTarget {
  database?: string;
  rules?: string;
  indexes?: string;
}

const firebaseJson = JSON.parse(readFileSync(resolve(ROOT, "firebase.json"), "utf8")) as {
  firestore: FirestoreTarget | FirestoreTarget[];
};

/** Every database the product reads or writes: routing data in (default), each region's data in its own. */
const DATABASES = ["(default)", ...REGION_IDS.map((regionId) => regionDatabaseId(regionId))];

test("when Firestore is deployed, then every database of the product gets the rules and the indexes", () => {
  const targets = Array.isArray(firebaseJson.firestore) ? firebaseJson.firestore : [firebaseJson.firestore];
  const byDatabase = new Map(targets.map((target) => [target.database ?? "(default)", target]));
  const uncovered = DATABASES.filter((database) => {
    const target = byDatabase.get(database);
    return target?.rules !== "firestore.rules" || target.indexes !== "firestore.indexes.json";
  });
  expect(uncovered).toEqual([]);
  expect([...byDatabase.keys()].sort()).toEqual([...DATABASES].sort());
});

test("when the rules are read, then they deny every client read and write, and allow nothing else", () => {
  const rules = readFileSync(resolve(ROOT, "firestore.rules"), "utf8").replace(/\/\/.*$/gm, "");
  const allows = [...rules.matchAll(/allow\s+([^;]+);/g)].map((match) =>
    match[1]!.replace(/\s+/g, " ").trim(),
  );
  expect(allows).toEqual(["read, write: if false"]);
  expect(rules).toMatch(/match \/\{document=\*\*\}/);
});

interface HostingSite {
  target?: string;
  rewrites?: { source: string; function?: { functionId: string; region: string } }[];
}

const hosting = (firebaseJson as unknown as { hosting: HostingSite[] }).hosting;
const firebaseRc = JSON.parse(readFileSync(resolve(ROOT, ".firebaserc"), "utf8")) as {
  targets: Record<string, { hosting: Record<string, string[]> }>;
};

test("when Hosting is deployed, then the web app's /v1 goes to the global API and each region has its own API site", () => {
  const rewriteOf = (target: string) =>
    hosting.find((site) => site.target === target)?.rewrites?.find((rewrite) => rewrite.source === "/v1/**")
      ?.function;
  expect(rewriteOf("app")).toEqual({ functionId: "api", region: GLOBAL_REGION });
  for (const regionId of REGION_IDS) {
    expect(rewriteOf(`api-${regionId}`)).toEqual({
      functionId: `${regionId}-api`,
      region: regionLocation(regionId),
    });
  }
  expect(hosting.map((site) => site.target).sort()).toEqual(
    ["app", ...REGION_IDS.map((regionId) => `api-${regionId}`)].sort(),
  );
  // Every target names a site of the local project (production projects apply their own).
  expect(Object.keys(firebaseRc.targets["demo-alpvault"]?.hosting ?? {}).sort()).toEqual(
    hosting.map((site) => site.target).sort(),
  );
});

test("when the local stack serves the regional API sites, then each is on the port Hosting gives its place in the list", () => {
  const base = (firebaseJson as unknown as { emulators: { hosting: { port: number } } }).emulators.hosting
    .port;
  for (const regionId of REGION_IDS) {
    const index = hosting.findIndex((site) => site.target === `api-${regionId}`);
    // The Hosting emulator serves the first site on its port and the n-th (n ≥ 1) on port + 4 + n.
    expect(LOCAL_REGION_API_PORTS[regionId]).toBe(base + 4 + index);
  }
});

test("when the functions are deployed, then every region has its API, dispatcher and workers in its own location", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const functions = require("../functions/src/index") as Record<string, unknown>;
  const locationOf = (trigger: unknown) =>
    (trigger as { __endpoint?: { region?: string[] } }).__endpoint?.region;
  expect(locationOf(functions.api)).toEqual([GLOBAL_REGION]);
  for (const regionId of REGION_IDS) {
    const group = functions[regionId] as Record<string, unknown> | undefined;
    expect(Object.keys(group ?? {}).sort()).toEqual(
      [
        "api",
        "collectBackupGarbage",
        "dispatchBackups",
        "runBackup",
        "runDrill",
        "runExport",
        "runRecovery",
        "verifyBackups",
      ].sort(),
    );
    for (const trigger of Object.values(group ?? {}))
      expect(locationOf(trigger)).toEqual([regionLocation(regionId)]);
  }
  // Nothing else is deployed: no function of organisation data outside a region.
  expect(Object.keys(functions).sort()).toEqual(["api", ...REGION_IDS].sort());
});

test("when the functions are deployed, then each region's backup queue runs as many backups at once as its share of the project's Gmail quota holds", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const functions = require("../functions/src/index") as Record<string, Record<string, unknown>>;
  const concurrencyOf = (trigger: unknown) =>
    (trigger as { __endpoint?: { taskQueueTrigger?: { rateLimits?: { maxConcurrentDispatches?: number } } } })
      .__endpoint?.taskQueueTrigger?.rateLimits?.maxConcurrentDispatches;
  // 2026 model: 1,200,000 Gmail units a minute for the project, 6,000 per user: 200 runs, 66 per region.
  for (const regionId of REGION_IDS) expect(concurrencyOf(functions[regionId]?.runBackup)).toBe(66);
});
