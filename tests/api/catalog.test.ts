/**
 * The Firestore catalog against the stack's Firestore emulator (region database "region-ch"): the catalog
 * conformance suite, and the backup runner once through a full Gmail backup, an incremental one and a
 * worker that dies and whose run is taken over, with the Workspace emulator in-process.
 */
import { randomBytes } from "node:crypto";
import { deleteApp, getApps, initializeApp, type App } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";
import { startHarness, type Harness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import type { ObjectScope } from "../../functions/src/engine/format/chunk-codec";
import { deriveKeys, newDataKey, type DataKey } from "../../functions/src/engine/format/keys";
import type {
  Catalog,
  CatalogItem,
  CatalogVersion,
  Checkpoint,
  RunRecord,
} from "../../functions/src/engine/runner/catalog";
import { FirestoreCatalog } from "../../functions/src/backups/catalog/repo";
import { CATALOG_ITEM, CATALOG_VERSION, CHUNK_ENTRY } from "../../functions/src/backups/catalog/documents";
import { BACKUP_RUN } from "../../functions/src/backups/catalog/run-documents";
import { decodeDocument, decodeDocuments } from "../../functions/src/lib/stored";
import { catalogDocId } from "../../functions/src/engine/runner/catalog-ids";
import { runBackup, type RunBackupResult } from "../../functions/src/engine/runner/run-backup";
import { Mailboxes, chunksOf, meter, restoreVersion } from "../support/backup";
import { describeCatalog, type StoredChunkEntry } from "../support/catalog-conformance";
import { stackEnv } from "../support/stack-env";

// The catalog takes its database from the default firebase-admin app, as in the functions.
if (getApps().length === 0) initializeApp({ projectId: stackEnv.projectId });

let app: App;
let db: Firestore;

beforeAll(() => {
  app = initializeApp({ projectId: stackEnv.projectId }, `catalog-test-${randomBytes(6).toString("hex")}`);
  db = getFirestore(app, "region-ch");
});

afterAll(async () => {
  await deleteApp(app);
});

/** Reads and arranges one organisation's catalog documents directly, for what the interface does not do. */
class CatalogDocuments {
  constructor(readonly organizationId: string) {}

  private get organization() {
    return db.collection("organizations").doc(this.organizationId);
  }

  async createRun(run: Pick<RunRecord, "runId" | "resourceId"> & Partial<RunRecord>): Promise<void> {
    const { runId, ...fields } = run;
    await this.organization
      .collection("backupRuns")
      .doc(runId)
      .create({
        state: "pending",
        cursor: null,
        progress: { items: 0, bytes: 0, storedBytes: 0 },
        unitsUsed: 0,
        itemErrors: [],
        itemErrorCount: 0,
        ...fields,
      });
  }

  async run(runId: string): Promise<RunRecord | undefined> {
    return decodeDocument(BACKUP_RUN, await this.organization.collection("backupRuns").doc(runId).get());
  }

  private items(resourceId: string) {
    return this.organization.collection("resources").doc(resourceId).collection("items");
  }

  async allItems(resourceId: string): Promise<CatalogItem[]> {
    return decodeDocuments(CATALOG_ITEM, (await this.items(resourceId).get()).docs);
  }

  /** The versions of one item, or of every item of the resource. */
  async versions(resourceId: string, itemKey?: string): Promise<CatalogVersion[]> {
    const keys =
      itemKey === undefined ? (await this.allItems(resourceId)).map((item) => item.itemKey) : [itemKey];
    const versions: CatalogVersion[] = [];
    for (const key of keys) {
      const snapshot = await this.items(resourceId).doc(catalogDocId(key)).collection("versions").get();
      versions.push(...decodeDocuments(CATALOG_VERSION, snapshot.docs));
    }
    return versions;
  }

  async chunkEntry(chunkId: string): Promise<StoredChunkEntry | undefined> {
    const snapshot = await this.organization.collection("chunkRefs").doc(chunkId).get();
    return decodeDocument(CHUNK_ENTRY, snapshot);
  }
}

function newOrganizationId(): string {
  return `org-catalog-${randomBytes(5).toString("hex")}`;
}

describeCatalog("FirestoreCatalog", () => {
  const organizationId = newOrganizationId();
  const documents = new CatalogDocuments(organizationId);
  return {
    catalog: new FirestoreCatalog({ organizationId, regionId: "ch" }),
    createRun: (run) => documents.createRun(run),
    versions: (resourceId, itemKey) => documents.versions(resourceId, itemKey),
    chunkEntry: (chunkId) => documents.chunkEntry(chunkId),
  };
});

/**
 * A catalog whose worker can die just before a checkpoint: from then on nothing that worker does reaches
 * the catalog (until `revive`).
 */
class DyingCatalog implements Catalog {
  dieOnNextCheckpoint = false;
  private dead = false;

  constructor(private readonly inner: Catalog) {}

  revive(): void {
    this.dead = false;
  }

  private alive(): void {
    if (this.dead) throw new Error("The worker is gone");
  }

  async getItems(...args: Parameters<Catalog["getItems"]>) {
    this.alive();
    return this.inner.getItems(...args);
  }
  async knownChunks(...args: Parameters<Catalog["knownChunks"]>) {
    this.alive();
    return this.inner.knownChunks(...args);
  }
  async recordChunks(...args: Parameters<Catalog["recordChunks"]>) {
    this.alive();
    return this.inner.recordChunks(...args);
  }
  async writeVersions(...args: Parameters<Catalog["writeVersions"]>) {
    this.alive();
    return this.inner.writeVersions(...args);
  }
  async markDeleted(...args: Parameters<Catalog["markDeleted"]>) {
    this.alive();
    return this.inner.markDeleted(...args);
  }
  async touchItems(...args: Parameters<Catalog["touchItems"]>) {
    this.alive();
    return this.inner.touchItems(...args);
  }
  async markUnseenDeleted(...args: Parameters<Catalog["markUnseenDeleted"]>) {
    this.alive();
    return this.inner.markUnseenDeleted(...args);
  }
  async mailLabelNames(...args: Parameters<Catalog["mailLabelNames"]>) {
    this.alive();
    return this.inner.mailLabelNames(...args);
  }
  async mailLabelsCheckedAt(...args: Parameters<Catalog["mailLabelsCheckedAt"]>) {
    this.alive();
    return this.inner.mailLabelsCheckedAt(...args);
  }
  async renameMailLabels(...args: Parameters<Catalog["renameMailLabels"]>) {
    this.alive();
    return this.inner.renameMailLabels(...args);
  }
  async saveLiveProgress(...args: Parameters<Catalog["saveLiveProgress"]>) {
    this.alive();
    return this.inner.saveLiveProgress(...args);
  }
  async loadRun(...args: Parameters<Catalog["loadRun"]>) {
    this.alive();
    return this.inner.loadRun(...args);
  }
  async takeLease(...args: Parameters<Catalog["takeLease"]>) {
    this.alive();
    return this.inner.takeLease(...args);
  }
  async saveCheckpoint(runId: string, holder: string, checkpoint: Checkpoint): Promise<void> {
    if (this.dieOnNextCheckpoint) {
      this.dieOnNextCheckpoint = false;
      this.dead = true;
    }
    this.alive();
    return this.inner.saveCheckpoint(runId, holder, checkpoint);
  }
  async releaseLease(...args: Parameters<Catalog["releaseLease"]>) {
    this.alive();
    return this.inner.releaseLease(...args);
  }
  async finishRun(...args: Parameters<Catalog["finishRun"]>) {
    this.alive();
    return this.inner.finishRun(...args);
  }
}

describe("Backup runner with the Firestore catalog", () => {
  let harness: Harness;
  let mail: Mailboxes;

  beforeAll(async () => {
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
    mail = new Mailboxes(harness);
  });

  afterAll(async () => {
    await harness.stop();
  });

  it("when a mailbox is backed up in full, then incrementally, then by a worker that dies and is taken over, then every message restores to its exact bytes and nothing is duplicated", async () => {
    const organizationId = newOrganizationId();
    const documents = new CatalogDocuments(organizationId);
    const catalog = new DyingCatalog(new FirestoreCatalog({ organizationId, regionId: "ch" }));
    const blobStore = new MemoryBlobStore();
    const dataKey: DataKey = newDataKey();
    const scope: ObjectScope = { organizationId, keys: deriveKeys(dataKey) };
    const user = `catalog-${randomBytes(4).toString("hex")}@example-test.test`;
    expect(
      (await harness.admin("POST", "/users", { email: user, givenName: "Catalog", familyName: "User" }))
        .status,
    ).toBe(200);
    const ids: string[] = [];
    for (let index = 0; index < 5; index++)
      ids.push(await mail.addMessage(user, `Full backup message ${index}`));

    let runs = 0;
    const newRun = async (): Promise<{ runId: string; resourceId: string }> => {
      const previous = runs > 0 ? await documents.run(`run-${runs}`) : undefined;
      runs += 1;
      const run = { runId: `run-${runs}`, resourceId: user };
      await documents.createRun({ ...run, cursor: previous?.cursor ?? null });
      return run;
    };
    const backup = (
      run: { runId: string; resourceId: string },
      options: { onCheckpoint?: () => void; now?: () => number } = {},
    ): Promise<RunBackupResult> =>
      runBackup({
        run,
        source: mail.gmailSource(user, meter()),
        blobStore,
        catalog,
        dataKey,
        organizationId,
        ...options,
      });
    const restore = async (version: CatalogVersion): Promise<Buffer> => {
      for (const chunk of await chunksOf(blobStore, scope, version)) {
        expect(await documents.chunkEntry(chunk.id)).toBeDefined();
      }
      return restoreVersion(blobStore, scope, version);
    };
    /** Every message's current version restores to the emulator's bytes; one version per version id. */
    const expectRestorable = async (): Promise<CatalogVersion[]> => {
      const items = await documents.allItems(user);
      expect(items.map((item) => item.itemKey).sort()).toEqual([...ids].sort());
      const versions = await documents.versions(user);
      const versionIds = versions.map((version) => version.versionId);
      expect(new Set(versionIds).size).toBe(versionIds.length);
      for (const item of items) {
        const current = versions.find((version) => version.versionId === item.currentVersionId);
        expect(current).toBeDefined();
        expect((await restore(current as CatalogVersion)).equals(mail.storedRaw(user, item.itemKey))).toBe(
          true,
        );
      }
      return versions;
    };

    // Full.
    const full = await newRun();
    expect((await backup(full)).outcome).toBe("succeeded");
    expect(await documents.run(full.runId)).toMatchObject({ state: "succeeded", progress: { items: 5 } });
    expect(await expectRestorable()).toHaveLength(5);

    // Incremental: one added, one relabelled.
    ids.push(await mail.addMessage(user, "Incremental message"));
    const relabelled = ids[1] as string;
    expect(
      (
        await harness.admin("POST", `/users/${user}/gmail/messages/${relabelled}:modify`, {
          addLabelIds: ["STARRED"],
        })
      ).status,
    ).toBe(200);
    const incremental = await newRun();
    expect((await backup(incremental)).outcome).toBe("succeeded");
    expect(await documents.run(incremental.runId)).toMatchObject({
      state: "succeeded",
      progress: { items: 2 },
    });
    expect(await expectRestorable()).toHaveLength(7);
    expect(await documents.versions(user, relabelled)).toHaveLength(2);

    // Killed after writing its second batch's versions, before that checkpoint; taken over later.
    for (let index = 0; index < 5; index++)
      ids.push(await mail.addMessage(user, `After the kill message ${index}`));
    const killed = await newRun();
    let checkpoints = 0;
    await backup(killed, {
      onCheckpoint: () => {
        checkpoints += 1;
        if (checkpoints === 1) catalog.dieOnNextCheckpoint = true;
      },
    });
    catalog.revive();
    const died = await documents.run(killed.runId);
    expect(died?.state).toBe("running");
    expect(died?.progress.items).toBe(2);
    expect(await documents.versions(user)).toHaveLength(11);
    expect(await backup(killed)).toEqual({ outcome: "skipped", why: "leased" });

    const later = Date.now() + 60 * 60_000;
    const takenOver = await backup(killed, { now: () => later });

    expect(takenOver.outcome).toBe("succeeded");
    expect(await documents.run(killed.runId)).toMatchObject({ state: "succeeded", lease: null });
    expect(await expectRestorable()).toHaveLength(12);
  });
});
