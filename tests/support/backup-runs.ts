/**
 * What API tests of backups share: an organisation with mail and a file in the stack's Workspace emulator,
 * starting backups through the API, waiting for runs, and reading the catalog, data keys and bucket as a
 * restore would.
 */
import { regionDatabaseId, type RegionId } from "@alpvault/contracts/regions";
import { regionalQueue } from "../../functions/src/lib/task-queue";
import { randomBytes } from "node:crypto";
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFunctions } from "firebase-admin/functions";
import type { AuditPage } from "@alpvault/contracts/audit";
import type { OrganizationSummary, Resource, ResourcesPage } from "@alpvault/contracts/organizations";
import type { Policy, PolicyInput } from "@alpvault/contracts/policies";
import { testMessage } from "../../emulators/workspace/src/index";
import { GcsBlobStore, regionBucketName } from "../../functions/src/engine/blobstore/gcs-blob-store";
import type { ObjectScope } from "../../functions/src/engine/format/chunk-codec";
import {
  decodeDataKeyRecord,
  defaultKeyWrapper,
  deriveKeys,
  unwrapDataKey,
} from "../../functions/src/engine/format/keys";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { localKeyEncryptionKey } from "../../functions/src/config";
import { PORTS } from "../../scripts/ports";
import { onboarded, withRegionDb, type ApiCaller } from "./organizations";
import { stackEnv } from "./stack-env";
import { harness, runsInProcess } from "./in-process/harness";
import { GOLD } from "./policies";
import { afterBackgroundWork } from "./wait";
import { workspaceAdmin } from "./workspace";

/** The region database of the organisations these helpers set up (Switzerland's, as onboarded() makes them). */
export const REGION_DB = "region-ch";

/** The region database of an organisation. */
export function regionDbOf(organization: OrganizationSummary): string {
  return regionDatabaseId(organization.subscriptions[0]?.region.id as RegionId);
}
export const today = () => new Date().toISOString().slice(0, 10);

/** MM-DD-YYYY (the search card's date) of the day `offset` days from today (UTC). */
export function searchDay(offset: number): string {
  const date = new Date(Date.now() + offset * 86_400_000);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}-${date.getUTCFullYear()}`;
}

export interface StoredRun {
  runId: string;
  state: string;
  itemErrorCount?: number;
  trigger?: string;
  failureReason?: string;
  progress?: { items: number; bytes: number; storedBytes: number };
  /** Each service's outcome, once the run has backed it up. */
  services?: Record<string, { state: string; failureReason?: string; detail?: string }>;
}

export interface StoredItem {
  itemKey: string;
  kind: string;
  sourceId: string;
  deletedAtSource: string | null;
  current: CatalogVersion;
}

/** An organisation with messages in its user's mailbox and a file in the user's My Drive. */
export async function organizationWithData(messages: number) {
  const setup = await onboarded();
  const { workspace } = setup;
  const raws = new Map<string, Buffer>();
  for (let index = 0; index < messages; index++) {
    const raw = testMessage({
      subject: `Quarterly figures ${index} ${setup.organization.organizationId}`,
      to: workspace.user,
      messageId: `m${index}.${setup.organization.organizationId}@x.test`,
      text: `Confidential body ${index} `.repeat(200),
    });
    const added = await workspaceAdmin<{ id: string }>("POST", `/users/${workspace.user}/gmail/messages`, {
      raw: raw.toString("base64"),
      encoding: "base64",
    });
    expect(added.status).toBe(200);
    raws.set(added.body.id, raw);
  }
  const fileBytes = Buffer.from("Budget 2027, line by line\n".repeat(5000));
  const file = await workspaceAdmin<{ id: string }>("POST", `/users/${workspace.user}/drive/files`, {
    name: "budget.txt",
    mimeType: "text/plain",
    content: fileBytes.toString("base64"),
  });
  expect(file.status).toBe(200);
  const resource = await resourceOf(setup.call, setup.organization, workspace.user);
  return { ...setup, raws, file: { id: file.body.id, bytes: fileBytes }, resource };
}

export async function resourcesOf(call: ApiCaller, organization: OrganizationSummary): Promise<Resource[]> {
  const answer = await call(`/organizations/${organization.organizationId}/resources?pageSize=100`);
  expect(answer.status).toBe(200);
  return (answer.body as ResourcesPage).resources;
}

export async function resourceOf(
  call: ApiCaller,
  organization: OrganizationSummary,
  email: string,
): Promise<Resource> {
  const found = (await resourcesOf(call, organization)).find((resource) => resource.email === email);
  if (!found) throw new Error(`No resource for ${email}`);
  return found;
}

/**
 * A run as the API writes one for "Backup now", but not enqueued: it stays pending until a test hands its
 * task to a queue or moves it on itself.
 */
export async function writePendingRun(
  organizationRef: FirebaseFirestore.DocumentReference,
  resourceId: string,
  requestedBy: string,
): Promise<FirebaseFirestore.DocumentReference> {
  const run = organizationRef.collection("backupRuns").doc();
  await run.create({
    resourceId,
    policyId: "default",
    trigger: "backup-now",
    state: "pending",
    requestedAt: new Date().toISOString(),
    requestedBy,
  });
  return run;
}

export function organizationDoc(organization: OrganizationSummary) {
  return (db: FirebaseFirestore.Firestore) => db.collection("organizations").doc(organization.organizationId);
}

export async function runsOf(organization: OrganizationSummary, resourceId: string): Promise<StoredRun[]> {
  return withRegionDb(regionDbOf(organization), async (db) => {
    const snapshot = await organizationDoc(organization)(db)
      .collection("backupRuns")
      .where("resourceId", "==", resourceId)
      .get();
    return snapshot.docs.map((doc) => ({ runId: doc.id, ...(doc.data() as Omit<StoredRun, "runId">) }));
  });
}

/** The run once it has finished (succeeded or failed): see `afterBackgroundWork`. */
export async function finishedRun(
  organization: OrganizationSummary,
  resourceId: string,
  runId: string,
): Promise<StoredRun> {
  const run = await afterBackgroundWork(
    `Run ${runId}`,
    async () => (await runsOf(organization, resourceId)).find((candidate) => candidate.runId === runId),
    (found) => found?.state === "succeeded" || found?.state === "failed",
  );
  return run!;
}

/**
 * Moves every catalog record of a resource's backups so far to `at` (items first and last seen, versions
 * captured), as if they had been captured then: a test's way to have backups of an earlier day.
 */
export async function backdateCatalog(organization: OrganizationSummary, resourceId: string, at: string) {
  await withRegionDb(REGION_DB, async (db) => {
    const items = await organizationDoc(organization)(db)
      .collection("resources")
      .doc(resourceId)
      .collection("items")
      .get();
    for (const item of items.docs) {
      await item.ref.update({ firstSeenAt: at, lastSeenAt: at });
      const versions = await item.ref.collection("versions").get();
      for (const version of versions.docs) await version.ref.update({ capturedAt: at });
    }
  });
}

export async function itemsOf(organization: OrganizationSummary, resourceId: string): Promise<StoredItem[]> {
  return withRegionDb(REGION_DB, async (db) => {
    const snapshot = await organizationDoc(organization)(db)
      .collection("resources")
      .doc(resourceId)
      .collection("items")
      .get();
    return snapshot.docs.map((doc) => doc.data() as StoredItem);
  });
}

/** The organisation's object scope, from its stored data key unwrapped with the local built-in key. */
export async function objectScope(organization: OrganizationSummary): Promise<ObjectScope> {
  const records = await withRegionDb(REGION_DB, async (db) =>
    (await organizationDoc(organization)(db).collection("dataKeys").get()).docs.map((doc) =>
      decodeDataKeyRecord(doc.data()),
    ),
  );
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ secretId: "default", state: "active" });
  const key = await unwrapDataKey(
    defaultKeyWrapper(localKeyEncryptionKey()),
    organization.organizationId,
    records[0]!,
  );
  return { organizationId: organization.organizationId, keys: deriveKeys(key) };
}

export const blobStore = () =>
  new GcsBlobStore({
    bucket: regionBucketName(stackEnv.projectId, "ch"),
    projectId: stackEnv.projectId,
    apiEndpoint: `http://127.0.0.1:${PORTS.storage}`,
  });

/**
 * Calls of one Cloud Storage operation on the organisation's objects held by the Storage emulator (a `hold`
 * fault) until `release`: a test sees the product's work in flight at that call instead of racing it.
 */
export async function holdStorageCalls(operation: string, organization: OrganizationSummary) {
  const admin = `http://127.0.0.1:${PORTS.storage}/emulator/v1/faults`;
  const added = await fetch(admin, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "hold", operation, objectPrefix: `o/${organization.organizationId}/` }),
  });
  const { id } = (await added.json()) as { id: string };
  return {
    /** Resolves once a call is held (fails after 30 s: the work never reached it). */
    async held(): Promise<void> {
      const answer = await fetch(`${admin}/${id}/held?count=1&withinMs=30000`);
      if (answer.status !== 200) throw new Error(`No ${operation} call was held`);
    },
    async release(): Promise<void> {
      await fetch(`${admin}/${id}`, { method: "DELETE" });
    },
  };
}

export async function auditOperations(call: ApiCaller, organization: OrganizationSummary) {
  const answer = await call(
    `/organizations/${organization.organizationId}/audit-logs?start=${today()}&end=${today()}&pageSize=100`,
  );
  expect(answer.status).toBe(200);
  return (answer.body as AuditPage).entries.map((entry) => ({
    operation: entry.operation,
    object: entry.object,
    failureReason: entry.failureReason,
  }));
}

export async function assignDefaultPolicy(
  call: ApiCaller,
  organization: OrganizationSummary,
  resourceId: string,
) {
  const answer = await call(`/organizations/${organization.organizationId}/policies/default/assign`, {
    method: "POST",
    body: { resourceIds: [resourceId] },
  });
  expect(answer.status).toBe(200);
}

/**
 * A policy (Gold's schedule, these data types) created and assigned to the user's resource, and the run
 * the assignment started, once it ended.
 */
export async function backedUpWithPolicy(
  setup: Pick<Awaited<ReturnType<typeof onboarded>>, "call" | "organization" | "workspace">,
  name: string,
  dataTypes: PolicyInput["dataTypes"],
): Promise<{ resourceId: string; run: StoredRun }> {
  const { call, organization, workspace } = setup;
  const base = `/organizations/${organization.organizationId}/policies`;
  const created = await call(base, { method: "POST", body: { ...GOLD, name, dataTypes } });
  expect(created.status).toBe(201);
  const { resourceId } = await resourceOf(call, organization, workspace.user);
  const assigned = await call(`${base}/${(created.body as Policy).policyId}/assign`, {
    method: "POST",
    body: { resourceIds: [resourceId] },
  });
  expect(assigned.status).toBe(200);
  const [pending] = await runsOf(organization, resourceId);
  return { resourceId, run: await finishedRun(organization, resourceId, pending!.runId) };
}

/**
 * Hands a task to one of a region's queues (Switzerland's unless told) as the product enqueues it: the
 * file's own queue when it runs the product in its process (delivered at the next `drainTasks`), else the
 * stack's Cloud Tasks emulator.
 */
export async function enqueueTaskTo(
  queue: "runBackup" | "runRecovery",
  task: Record<string, string>,
  regionId: RegionId = "ch",
) {
  if (runsInProcess()) {
    await harness().queue.transport(regionId, queue, task, {});
    return;
  }
  const app = initializeApp({ projectId: stackEnv.projectId }, `tasks-${randomBytes(6).toString("hex")}`);
  try {
    await getFunctions(app).taskQueue(regionalQueue(regionId, queue)).enqueue(task);
  } finally {
    await deleteApp(app);
  }
}

export function enqueueTask(task: { organizationId: string; resourceId: string; runId: string }) {
  return enqueueTaskTo("runBackup", task);
}

export async function backupNow(call: ApiCaller, organization: OrganizationSummary, resourceId: string) {
  return call(`/organizations/${organization.organizationId}/resources/${resourceId}/backups`, {
    method: "POST",
  });
}
