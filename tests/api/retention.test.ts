/**
 * Retention and garbage collection on the stack's Firestore (the engine runs in this process against an
 * in-process Workspace emulator and a memory bucket): pruning follows the policy, the sweep deletes only
 * what no live version names, every live version still restores to its exact bytes, the grace period and
 * the GC lock are honoured.
 */
import { randomBytes } from "node:crypto";
import { deleteApp, getApps, initializeApp, type App } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { chunkObjectName, type ObjectScope } from "../../functions/src/engine/format/chunk-codec";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { collectGarbage } from "../../functions/src/backups/retention/gc";
import type { CatalogItem, CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { FirestoreCatalog } from "../../functions/src/backups/catalog/repo";
import { CATALOG_ITEM, CATALOG_VERSION } from "../../functions/src/backups/catalog/documents";
import { BACKUP_RUN } from "../../functions/src/backups/catalog/run-documents";
import { decodeDocument, decodeDocuments } from "../../functions/src/lib/stored";
import { catalogDocId } from "../../functions/src/engine/runner/catalog-ids";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import { CountingSource, Mailboxes, chunksOf, meter, restoreVersion } from "../support/backup";
import { stackEnv } from "../support/stack-env";

jest.setTimeout(120_000);

if (getApps().length === 0) initializeApp({ projectId: stackEnv.projectId });

const DAY = 24 * 3600 * 1000;
const T0 = Date.parse("2026-09-01T10:00:00.000Z");

let app: App;
let db: Firestore;
let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  app = initializeApp({ projectId: stackEnv.projectId }, `retention-${randomBytes(6).toString("hex")}`);
  db = getFirestore(app, "region-ch");
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
  await deleteApp(app);
});

/**
 * An organisation whose mailbox was backed up on day 0 (messages A, B, C) and on day 1, after A was
 * relabelled (a second version of A sharing its chunks) and B was deleted at the source.
 */
async function backedUp(rule: { retentionDays: number; archiving: boolean }) {
  const organizationId = `org-retention-${randomBytes(5).toString("hex")}`;
  const organization = db.collection("organizations").doc(organizationId);
  const user = await mail.newUser(`retention-${randomBytes(3).toString("hex")}-`);
  await organization
    .collection("policies")
    .doc("p")
    .set({
      name: "Retention",
      dataTypes: ["emails"],
      frequency: 1,
      schedule: "every-day",
      days: [],
      ...rule,
    });
  await organization
    .collection("resources")
    .doc(user)
    .set({ type: "email", name: user, email: user, policyId: "p" });
  const [a, b, c] = [
    await mail.addMessage(user, "Alpha message for retention"),
    await mail.addMessage(user, "Bravo message for retention"),
    await mail.addMessage(user, "Charlie message for retention"),
  ] as [string, string, string];
  const scope = { organizationId, regionId: "ch" as const };
  const catalog = new FirestoreCatalog(scope);
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  const objects: ObjectScope = { organizationId, keys: deriveKeys(dataKey) };
  let cursor: string | null = null;
  const backupAt = async (runId: string, at: number) => {
    await organization
      .collection("backupRuns")
      .doc(runId)
      .create({
        resourceId: user,
        state: "pending",
        cursor,
        progress: { items: 0, bytes: 0, storedBytes: 0 },
        unitsUsed: 0,
        itemErrors: [],
        itemErrorCount: 0,
      });
    const result = await runBackup({
      run: { runId, resourceId: user },
      source: mail.gmailSource(user, meter()),
      blobStore,
      catalog,
      dataKey,
      organizationId,
      now: () => at,
    });
    expect(result.outcome).toBe("succeeded");
    cursor = decodeDocument(
      BACKUP_RUN,
      await organization.collection("backupRuns").doc(runId).get(),
    )!.cursor!;
  };
  await backupAt("run-1", T0);
  expect(
    (await harness.admin("POST", `/users/${user}/gmail/messages/${a}:modify`, { addLabelIds: ["STARRED"] }))
      .status,
  ).toBe(200);
  expect((await harness.admin("DELETE", `/users/${user}/gmail/messages/${b}`)).status).toBeLessThan(300);
  await backupAt("run-2", T0 + DAY);

  const items = async (): Promise<CatalogItem[]> =>
    decodeDocuments(
      CATALOG_ITEM,
      (await organization.collection("resources").doc(user).collection("items").get()).docs,
    );
  const versionsOf = async (itemKey: string): Promise<CatalogVersion[]> =>
    decodeDocuments(
      CATALOG_VERSION,
      (
        await organization
          .collection("resources")
          .doc(user)
          .collection("items")
          .doc(catalogDocId(itemKey))
          .collection("versions")
          .get()
      ).docs,
    );
  const gc = (now: number, graceMs?: number) =>
    collectGarbage({
      scope,
      blobStore,
      keys: () => Promise.resolve(objects.keys),
      now: new Date(now),
      ...(graceMs === undefined ? {} : { graceMs }),
    });
  /** Every version left restores to the source bytes of its message (B's from before its deletion). */
  const expectRestorable = async (sources: Map<string, Buffer>) => {
    for (const item of await items()) {
      for (const version of await versionsOf(item.itemKey)) {
        expect((await restoreVersion(blobStore, objects, version)).equals(sources.get(item.itemKey)!)).toBe(
          true,
        );
      }
    }
  };
  const sources = new Map([
    [a, mail.storedRaw(user, a)],
    [c, mail.storedRaw(user, c)],
  ]);
  return {
    organization,
    organizationId,
    user,
    a,
    b,
    c,
    blobStore,
    objects,
    catalog,
    items,
    versionsOf,
    gc,
    sources,
    expectRestorable,
  };
}

describe("retention and garbage collection", () => {
  test("when retention has passed and deleted items are not archived, then old versions and the deleted message go, their chunks are swept, and everything left restores exactly", async () => {
    const setup = await backedUp({ retentionDays: 30, archiving: false });
    const bVersions = await setup.versionsOf(setup.b);
    expect(bVersions).toHaveLength(1);
    const bChunks = await chunksOf(setup.blobStore, setup.objects, bVersions[0]!);
    // Each version says when it stopped being current: B's at its deletion, A's first at its successor.
    const day1 = new Date(T0 + DAY).toISOString();
    expect(bVersions[0]?.endedAt).toBe(day1);
    const aEnds = (await setup.versionsOf(setup.a)).map((version) => version.endedAt);
    expect(aEnds).toHaveLength(2);
    expect(aEnds).toContain(day1);
    expect(aEnds).toContain(null);

    // Ten days in: everything is within retention.
    expect(await setup.gc(T0 + 10 * DAY)).toMatchObject({
      outcome: "done",
      versionsPruned: 0,
      chunksDeleted: 0,
    });

    const result = await setup.gc(T0 + 40 * DAY);
    expect(result).toMatchObject({ outcome: "done", versionsPruned: 2, itemsRemoved: 1 });
    expect(result.chunksDeleted).toBeGreaterThanOrEqual(bChunks.length);
    expect((await setup.items()).map((item) => item.itemKey).sort()).toEqual([setup.a, setup.c].sort());
    const aVersions = await setup.versionsOf(setup.a);
    expect(aVersions.map((version) => version.versionId)).toEqual([
      (await setup.items()).find((item) => item.itemKey === setup.a)!.currentVersionId,
    ]);
    for (const chunk of bChunks) {
      expect(await setup.blobStore.exists(chunkObjectName(setup.organizationId, chunk.id))).toBe(false);
      expect((await setup.organization.collection("chunkRefs").doc(chunk.id).get()).exists).toBe(false);
    }
    await setup.expectRestorable(setup.sources);

    // A second collection finds nothing more to do.
    expect(await setup.gc(T0 + 41 * DAY)).toMatchObject({
      versionsPruned: 0,
      chunksDeleted: 0,
      manifestsDeleted: 0,
    });
    await setup.expectRestorable(setup.sources);
  });

  test("when deleted items are archived, then the deleted message's last version stays and restores", async () => {
    const setup = await backedUp({ retentionDays: 30, archiving: true });
    const bSource = (await setup.versionsOf(setup.b))[0]!;
    const bBytes = await restoreVersion(setup.blobStore, setup.objects, bSource);
    const result = await setup.gc(T0 + 400 * DAY);
    expect(result).toMatchObject({ outcome: "done", versionsPruned: 1, itemsRemoved: 0, chunksDeleted: 0 });
    await setup.expectRestorable(new Map([...setup.sources, [setup.b, bBytes]]));
  });

  test("when a run stopped in the middle of a large file, then the collector keeps that file's partial chunk list and chunks, and the run ends it whole", async () => {
    const organizationId = `org-partial-${randomBytes(5).toString("hex")}`;
    const organization = db.collection("organizations").doc(organizationId);
    const user = await mail.newUser(`partial-${randomBytes(3).toString("hex")}-`);
    await organization.collection("resources").doc(user).set({ type: "email", name: user, email: user });
    const size = 6 * 1024 * 1024 + 777;
    const file = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, {
      name: "large.bin",
      mimeType: "application/octet-stream",
      generated: { seed: organizationId, size },
    });
    expect(file.status).toBe(200);
    await organization
      .collection("backupRuns")
      .doc("run-1")
      .create({
        resourceId: user,
        state: "pending",
        cursor: null,
        progress: { items: 0, bytes: 0, storedBytes: 0 },
        unitsUsed: 0,
        itemErrors: [],
        itemErrorCount: 0,
      });
    const scope = { organizationId, regionId: "ch" as const };
    const blobStore = new MemoryBlobStore();
    const dataKey = newDataKey();
    const objects: ObjectScope = { organizationId, keys: deriveKeys(dataKey) };
    const auth = harness.jwt(user, [SCOPES.drive]);
    const drive = () =>
      new DriveSource({
        drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
        accessToken: async () => (await auth.getAccessToken()).token ?? "",
        resource: { kind: "user", email: user },
        caller: meter(),
      });
    const deliver = (now: number, signal?: AbortSignal, source = new CountingSource(drive())) =>
      runBackup({
        run: { runId: "run-1", resourceId: user },
        source: new ResourceSource([source]),
        blobStore,
        catalog: new FirestoreCatalog(scope),
        dataKey,
        organizationId,
        resumableItemBytes: 1024 * 1024,
        now: () => now,
        ...(signal ? { signal } : {}),
      });
    // The deadline comes once 2 MiB of the file passed.
    const controller = new AbortController();
    const stopping = new CountingSource(drive(), { controller, after: 2 * 1024 * 1024 });
    expect((await deliver(T0, controller.signal, stopping)).outcome).toBe("continue");
    const partial = decodeDocument(
      BACKUP_RUN,
      await organization.collection("backupRuns").doc("run-1").get(),
    )?.partial;
    expect(partial?.offset).toBeGreaterThan(0);
    expect(await blobStore.exists(partial!.manifestObject)).toBe(true);

    // Days later (the grace of its chunks has passed): the collector keeps them.
    const collected = await collectGarbage({
      scope,
      blobStore,
      keys: () => Promise.resolve(objects.keys),
      now: new Date(T0 + 3 * DAY),
    });
    expect(collected.outcome).toBe("done");
    expect(await blobStore.exists(partial!.manifestObject)).toBe(true);

    expect((await deliver(T0 + 3 * DAY)).outcome).toBe("succeeded");
    const [item] = decodeDocuments(
      CATALOG_ITEM,
      (await organization.collection("resources").doc(user).collection("items").get()).docs,
    );
    const [version] = decodeDocuments(
      CATALOG_VERSION,
      (
        await organization
          .collection("resources")
          .doc(user)
          .collection("items")
          .doc(catalogDocId(item!.itemKey))
          .collection("versions")
          .get()
      ).docs,
    );
    expect(version!.size).toBe(size);
    const restored = await restoreVersion(blobStore, objects, version!);
    const download = await new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }).files.get(
      { fileId: file.body.id, alt: "media" },
      { responseType: "arraybuffer" },
    );
    expect(restored.equals(Buffer.from(download.data as ArrayBuffer))).toBe(true);
  });

  test("when an unreferenced chunk was referenced within the grace period, then it is kept", async () => {
    const setup = await backedUp({ retentionDays: 30, archiving: false });
    const result = await setup.gc(T0 + 40 * DAY, 100 * DAY);
    expect(result).toMatchObject({ versionsPruned: 2, itemsRemoved: 1, chunksDeleted: 0 });
  });

  test("when a backup holds a live lease, the collector waits; while the collector holds its lock, no backup run starts", async () => {
    const setup = await backedUp({ retentionDays: 30, archiving: false });
    const now = T0 + 40 * DAY;
    const lease = { holder: "worker-1", until: new Date(now + 60_000).toISOString() };
    await setup.organization
      .collection("backupRuns")
      .doc("run-live")
      .create({ resourceId: setup.user, state: "running", lease });
    expect(await setup.gc(now)).toMatchObject({
      outcome: "skipped",
      why: "backups-running",
      versionsPruned: 0,
    });
    expect(await setup.versionsOf(setup.a)).toHaveLength(2);
    await setup.organization.collection("backupRuns").doc("run-live").delete();

    await setup.organization
      .collection("meta")
      .doc("gc")
      .set({ holder: "another-collector", sweepingUntil: new Date(now + 60_000).toISOString() });
    expect(await setup.gc(now)).toMatchObject({ outcome: "skipped", why: "gc-running" });
    await setup.organization
      .collection("backupRuns")
      .doc("run-3")
      .create({
        resourceId: setup.user,
        state: "pending",
        cursor: null,
        progress: { items: 0, bytes: 0, storedBytes: 0 },
        unitsUsed: 0,
        itemErrors: [],
        itemErrorCount: 0,
      });
    expect(
      await setup.catalog.takeLease(
        "run-3",
        "worker-2",
        new Date(now + 120_000).toISOString(),
        new Date(now).toISOString(),
      ),
    ).toBe("held-by-another");
    // Once the lock has expired, runs go on.
    expect(
      await setup.catalog.takeLease(
        "run-3",
        "worker-2",
        new Date(now + 300_000).toISOString(),
        new Date(now + 120_000).toISOString(),
      ),
    ).toBe("taken");
  });
});
