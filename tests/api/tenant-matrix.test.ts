/**
 * Tenant isolation on every route of the API's own route table: the admin of organisation A (Switzerland)
 * calls each organisation route with organisation B's (European Union) ids (B's organisation in the path; or A's organisation with B's
 * subscription, resource, policy, secret, checkout or recovery; or B's resources in the body). Every call is
 * 404, and B's data (every document under B in its region database, and B's global records) is exactly as
 * before. B's own admin reading the same ids gets them, so the 404s are about tenancy, not bad ids.
 */
import type { DocumentReference, Firestore } from "firebase-admin/firestore";
import { composeApi } from "../../functions/src/api";
import { routeTable, type RouteEntry } from "../../functions/src/http/route-table";
import type { CheckoutResponse } from "@alpvault/contracts/billing";
import type { Policy } from "@alpvault/contracts/policies";
import { regionDatabaseId, type RegionId } from "@alpvault/contracts/regions";
import type { Secret } from "@alpvault/contracts/secrets";
import { createKmsKey } from "../support/kms";
import { googleSubOf, onboarded, setAccount, withRegionDb, type ApiCaller } from "../support/organizations";
import { SAMPLE_POLICY, validBodies } from "../support/requests";
import type { ApiHost } from "../support/regions";
import { stackEnv } from "../support/stack-env";
import { EMPTY_CHECKPOINT } from "../../functions/src/export/repo";

jest.setTimeout(300_000);

const ROUTES = routeTable(
  composeApi(null, {
    identity: { verifyIdToken: () => Promise.reject(new Error("only the table is read")) },
    appCheck: { verifyAppCheckToken: () => Promise.reject(new Error("only the table is read")) },
  }),
);

/** Routes that name no organisation, and why the matrix has nothing to try on them. */
const OUTSIDE_ANY_ORGANISATION: Record<string, string> = {
  "POST /v1/payments/webhook": "called by the payment provider, checked by its signature",
  "GET /v1/payments/sandbox/:checkoutId": "the local payment page, reached by its checkout link",
  "POST /v1/payments/sandbox/:checkoutId": "the local payment page, reached by its checkout link",
  "GET /v1/health": "the caller's own identity",
  "GET /v1/regions": "the region list",
  "GET /v1/installation": "the caller's own domain",
  "POST /v1/organizations": "creates the caller's own domain's organisation",
  "GET /v1/plans": "the plan catalogue",
};

interface Tenant {
  call: ApiCaller;
  regionId: RegionId;
  organizationId: string;
  subscriptionId: string;
  resourceIds: string[];
  policyId: string;
  secretId: string;
  checkoutId: string;
  recoveryId: string;
  drillRunId: string;
  exportId: string;
}

const TENANT_POLICY = { ...SAMPLE_POLICY, name: "Tenant policy" };

let a: Tenant;
let b: Tenant;

/** A paid organisation of `regionId` with one of everything an id can name. */
async function tenant(regionId: RegionId): Promise<Tenant> {
  const setup = await onboarded(regionId);
  await setAccount(setup.organization, { planId: "zurich", seats: 10 });
  const organizationId = setup.organization.organizationId;
  const base = `/organizations/${organizationId}`;
  const policy = await setup.call(`${base}/policies`, {
    method: "POST",
    body: TENANT_POLICY,
  });
  if (policy.status !== 201) throw new Error(`Creating a policy: ${JSON.stringify(policy.body)}`);
  const secret = await setup.call(`${base}/secrets`, {
    method: "POST",
    body: { description: "Tenant key", kmsResourceName: await createKmsKey() },
  });
  if (secret.status !== 201) throw new Error(`Creating a secret: ${JSON.stringify(secret.body)}`);
  const checkout = await setup.call(`${base}/checkout`, {
    method: "POST",
    body: { purchase: { kind: "storage", packs: 1 }, returnUrl: `${stackEnv.webUrl}/plans` },
  });
  if (checkout.status !== 201) throw new Error(`Starting a checkout: ${JSON.stringify(checkout.body)}`);
  const resourceIds = [
    `user-${await googleSubOf(setup.workspace.admin)}`,
    `user-${await googleSubOf(setup.workspace.user)}`,
  ];
  // A finished recovery (recoveries need backups; only its id matters here).
  const recoveryId = await withRegionDb(regionDatabaseId(regionId), async (db) => {
    const ref = db.collection("organizations").doc(organizationId).collection("recoveries").doc();
    await ref.set({
      state: "succeeded",
      service: "gmail",
      resourceId: resourceIds[0],
      targetResourceId: resourceIds[0],
      method: "folder",
      folderName: "Recovered",
      asOf: null,
      requestedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
      progress: { total: 0, restored: 0, skipped: 0, failed: 0 },
      failureReason: null,
      permissions: false,
      itemIds: null,
      requestedBy: setup.workspace.admin,
      position: { index: 0, lastItemKey: null },
      lease: null,
    });
    return ref.id;
  });
  // A finished restore drill (only its id matters here).
  const drillRunId = await withRegionDb(regionDatabaseId(regionId), async (db) => {
    const ref = db.collection("organizations").doc(organizationId).collection("drillRuns").doc();
    await ref.set({
      state: "passed",
      trigger: "manual",
      requestedBy: setup.workspace.admin,
      requestedAt: new Date().toISOString(),
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
      durationMs: 0,
      sandboxResourceId: resourceIds[0],
      sandboxEmail: setup.workspace.admin,
      sampleSize: 5,
      counts: { sample: 0, matched: 0, mismatched: 0, failed: 0, skipped: 0 },
      resources: [],
      problems: [],
      failureReason: null,
      resourceIds: [],
      position: { resourceIndex: 0, sampled: false, itemsFrom: 0, itemsTo: 0, itemIndex: 0, cleaned: true },
      restoreName: "Alpvault drill",
      lease: null,
    });
    return ref.id;
  });
  // A finished export job (only its id matters here; its file is not needed for a refusal).
  const exportId = await withRegionDb(regionDatabaseId(regionId), async (db) => {
    const ref = db.collection("organizations").doc(organizationId).collection("exports").doc();
    const now = new Date().toISOString();
    await ref.set({
      state: "succeeded",
      service: "gmail",
      format: "mbox",
      resourceId: resourceIds[0],
      resourceName: setup.workspace.admin,
      fileName: "mail.mbox",
      objectName: `o/${organizationId}/x/${ref.id}/mail.mbox`,
      itemIds: null,
      asOf: null,
      requestedAt: now,
      requestedBy: setup.workspace.admin,
      finishedAt: now,
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      progress: { total: 0, exported: 0, failed: 0, bytes: 0 },
      failureReason: null,
      problems: [],
      downloads: 0,
      lastDownloadedAt: null,
      checkpoint: EMPTY_CHECKPOINT,
      lease: null,
      deliveries: 1,
    });
    return ref.id;
  });
  return {
    call: setup.call,
    regionId,
    organizationId,
    subscriptionId: setup.organization.subscriptions[0]!.subscriptionId,
    resourceIds,
    policyId: (policy.body as Policy).policyId,
    secretId: (secret.body as { secret: Secret }).secret.secretId,
    checkoutId: (checkout.body as CheckoutResponse).checkoutId,
    recoveryId,
    drillRunId,
    exportId,
  };
}

/** Every document under `ref`, its subcollections included, as path → data. */
async function subtree(ref: DocumentReference, into: Map<string, unknown>): Promise<void> {
  const snapshot = await ref.get();
  if (snapshot.exists) into.set(ref.path, snapshot.data());
  for (const collection of await ref.listCollections()) {
    for (const doc of await collection.listDocuments()) await subtree(doc, into);
  }
}

/** B's data in its region database and B's global record. */
async function stateOf(tenant: Tenant): Promise<Map<string, unknown>> {
  const state = new Map<string, unknown>();
  await withRegionDb(regionDatabaseId(tenant.regionId), (db: Firestore) =>
    subtree(db.collection("organizations").doc(tenant.organizationId), state),
  );
  await withRegionDb("(default)", async (db: Firestore) => {
    const organization = await db.collection("organizations").doc(tenant.organizationId).get();
    state.set(`(default)/${organization.ref.path}`, organization.data());
  });
  return state;
}

/** What an id parameter names in `of`. */
function idOf(param: string, of: Tenant): string {
  const ids: Record<string, string> = {
    organizationId: of.organizationId,
    subscriptionId: of.subscriptionId,
    resourceId: of.resourceIds[0]!,
    policyId: of.policyId,
    secretId: of.secretId,
    checkoutId: of.checkoutId,
    recoveryId: of.recoveryId,
    drillRunId: of.drillRunId,
    exportId: of.exportId,
  };
  const id = ids[param];
  if (id === undefined) throw new Error(`The matrix does not know the parameter :${param}`);
  return id;
}

/** A body that would be accepted with the path's own ids: only the tenancy can refuse it. */
function bodyFor(route: RouteEntry, resources: string[]): unknown {
  return validBodies([resources[0]!, resources[1]!])[`${route.method} ${route.path}`];
}

/**
 * The calls of the matrix for one route: B's organisation (on B's regional API, as the web would send it,
 * and on A's); A's organisation with B's other ids or with B's resources in the body.
 */
function attempts(route: RouteEntry): { label: string; path: string; body: unknown; host?: ApiHost }[] {
  const fill = (organization: Tenant, others: Tenant) =>
    route.path
      .replace(/^\/v1/, "")
      .replace(/(?<!\\):([A-Za-z0-9_]+)/g, (_match, param: string) =>
        param === "organizationId" ? organization.organizationId : idOf(param, others),
      )
      .replace(/\\:/g, ":");
  const list: { label: string; path: string; body: unknown; host?: ApiHost }[] = [
    { label: "B's organisation", path: fill(b, b), body: bodyFor(route, b.resourceIds) },
    {
      label: "B's organisation on A's regional API",
      path: fill(b, b),
      body: bodyFor(route, b.resourceIds),
      host: a.regionId,
    },
  ];
  if (route.params.length > 1) {
    list.push({ label: "A's organisation, B's ids", path: fill(a, b), body: bodyFor(route, a.resourceIds) });
  }
  const withForeignResources = bodyFor(route, b.resourceIds);
  if (JSON.stringify(withForeignResources) !== JSON.stringify(bodyFor(route, a.resourceIds))) {
    list.push({
      label: "A's organisation, B's resources in the body",
      path: fill(a, a),
      body: withForeignResources,
    });
  }
  return list;
}

const organizationRoutes = ROUTES.filter((route) => route.params.includes("organizationId"));

beforeAll(async () => {
  // Another region for B: isolation holds across regions as within one.
  [a, b] = await Promise.all([tenant("ch"), tenant("eu")]);
});

test("when the route table is read, then every route is either an organisation's or named here with its reason", () => {
  const outside = ROUTES.filter((route) => !route.params.includes("organizationId")).map(
    (route) => `${route.method} ${route.path}`,
  );
  expect(outside.sort()).toEqual(Object.keys(OUTSIDE_ANY_ORGANISATION).sort());
  expect(organizationRoutes.length).toBeGreaterThanOrEqual(25);
});

test("when B's admin reads B's ids, then they exist (the matrix's 404s are about tenancy)", async () => {
  const base = `/organizations/${b.organizationId}`;
  const answers = await Promise.all([
    b.call(`${base}/subscriptions/${b.subscriptionId}`),
    b.call(`${base}/policies/${b.policyId}`),
    b.call(`${base}/payments/${b.checkoutId}`),
    b.call(`${base}/recoveries/${b.recoveryId}`),
    b.call(`${base}/drills/runs/${b.drillRunId}`),
    b.call(`${base}/exports/${b.exportId}`),
  ]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  const secrets = (await b.call(`${base}/secrets`)).body as { secrets: Secret[] };
  expect(secrets.secrets.map((secret) => secret.secretId)).toContain(b.secretId);
});

test("when A's admin calls every organisation route with B's ids, then every answer is 404 and B's data is unchanged", async () => {
  const before = await stateOf(b);
  expect(before.size).toBeGreaterThan(5);
  const refused: string[] = [];
  let tried = 0;
  for (const route of organizationRoutes) {
    for (const attempt of attempts(route)) {
      tried += 1;
      const answer = await a.call(attempt.path, {
        method: route.method,
        body: attempt.body,
        ...(attempt.host ? { host: attempt.host } : {}),
      });
      const outcome = `${route.method} ${route.path} [${attempt.label}] → ${answer.status}`;
      if (answer.status !== 404 || (answer.body as { code?: unknown }).code !== 404) {
        refused.push(`${outcome} ${JSON.stringify(answer.body).slice(0, 200)}`);
      }
    }
  }
  expect(refused).toEqual([]);
  // Every organisation route twice with B's organisation, and again wherever A's organisation can carry B's ids.
  expect(tried).toBeGreaterThan(2 * organizationRoutes.length + 15);
  expect(await stateOf(b)).toEqual(before);
});
