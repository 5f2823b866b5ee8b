/**
 * One behaviour for every `Catalog` (docs/backup-format.md §5, §6): what the backup runner relies on.
 * `describeCatalog` runs it against a catalog a factory makes; the factory also gives what the interface
 * has no call for (creating a run, reading an item's versions and a chunk index entry).
 */
import { randomBytes } from "node:crypto";
import {
  LeaseLostError,
  MAX_ITEM_ERRORS,
  MAX_VERSIONS_PER_CALL,
  versionIdOf,
  type Catalog,
  type CatalogVersion,
  type RunRecord,
} from "../../functions/src/engine/runner/catalog";
import type { StoredChunkEntry } from "../../functions/src/backups/catalog/documents";

export type { StoredChunkEntry };

export interface CatalogUnderTest {
  catalog: Catalog;
  /** A new run record (pending, no cursor unless given). */
  createRun(run: Pick<RunRecord, "runId" | "resourceId"> & Partial<RunRecord>): Promise<void>;
  /** Every version document of one item. */
  versions(resourceId: string, itemKey: string): Promise<CatalogVersion[]>;
  chunkEntry(chunkId: string): Promise<StoredChunkEntry | undefined>;
}

const T0 = "2026-03-01T10:00:00.000Z";
const T1 = "2026-03-01T11:00:00.000Z";
const T2 = "2026-03-01T12:00:00.000Z";

function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

function hex(seed: string): string {
  return Buffer.from(seed.padEnd(32, "0")).toString("hex").slice(0, 64).padEnd(64, "0");
}

/** A Gmail message version (inline chunk list). */
function mailVersion(
  itemKey: string,
  versionKey: string,
  options: { capturedAt?: string; runId?: string; labels?: string[]; subject?: string; date?: string } = {},
): CatalogVersion {
  const labels = options.labels ?? ["INBOX"];
  return {
    versionId: versionIdOf(itemKey, versionKey),
    itemKey,
    kind: "gmail-message",
    versionKey,
    contentKey: itemKey,
    capturedAt: options.capturedAt ?? T0,
    runId: options.runId ?? "run-a",
    size: 1234,
    storedBytes: 800,
    contentDigest: hex(`digest-${itemKey}`),
    dataKeyId: "0123456789abcdef0123456789abcdef",
    metadata: {
      labels: labels.map((id) => ({ id, name: id.toLowerCase() })),
      threadId: `thread-${itemKey}`,
      internalDate: 1_772_000_000_000,
      historyId: versionKey,
      // Absent in the document, as Firestore stores it.
      description: undefined,
    },
    search: {
      kind: "mail",
      subject: options.subject ?? "quarterly figures",
      fromName: "ada",
      fromEmail: "ada@example.test",
      to: ["ueli@example.test"],
      date: options.date ?? T0,
      labels: labels.map((id) => id.toLowerCase()),
      size: 1234,
      keywords: ["quarterly", "figures", "ada"],
    },
    formatVersion: 1,
    chunks: [
      { id: hex(`chunk-1-${itemKey}`), size: 1000 },
      { id: hex(`chunk-2-${itemKey}`), size: 234 },
    ],
  };
}

/** A Drive file version whose chunk list is a manifest object. */
function driveVersion(itemKey: string, versionKey: string): CatalogVersion {
  const versionId = versionIdOf(itemKey, versionKey);
  return {
    versionId,
    itemKey,
    kind: "drive-file",
    versionKey,
    contentKey: `rev-${versionKey}`,
    capturedAt: T0,
    runId: "run-a",
    size: 20_000_000,
    storedBytes: 19_000_000,
    contentDigest: hex(`digest-${itemKey}`),
    dataKeyId: "0123456789abcdef0123456789abcdef",
    metadata: { name: "video.bin", mimeType: "application/octet-stream", path: "My Drive/Holidays" },
    search: {
      kind: "drive",
      name: "video.bin",
      path: "my drive/holidays",
      mimeType: "application/octet-stream",
      createdBy: "ada@example.test",
      modifiedTime: T0,
      size: 20_000_000,
      googleId: itemKey,
      keywords: ["video", "bin"],
    },
    formatVersion: 1,
    manifestObject: `o/org/m/${versionId}`,
  };
}

const progress = { items: 0, bytes: 0, storedBytes: 0 };

export function describeCatalog(
  name: string,
  makeCatalog: () => CatalogUnderTest | Promise<CatalogUnderTest>,
): void {
  describe(`Catalog conformance: ${name}`, () => {
    let subject: CatalogUnderTest;
    let catalog: Catalog;
    let resource: string;

    beforeEach(async () => {
      subject = await makeCatalog();
      catalog = subject.catalog;
      resource = unique("user@example.test");
    });

    describe("items and versions", () => {
      it("when versions are written, then each item's summary names its current version and chunk list", async () => {
        const mail = mailVersion("m1", "100");
        const drive = driveVersion("file/with/slashes", "7");

        await catalog.writeVersions(resource, [mail, drive]);

        const items = await catalog.getItems(resource, ["m1", "file/with/slashes", "never-seen"]);
        expect([...items.keys()].sort()).toEqual(["file/with/slashes", "m1"]);
        expect(items.get("m1")).toEqual({
          itemKey: "m1",
          kind: "gmail-message",
          sourceId: "m1",
          currentVersionId: "m1@100",
          current: {
            versionId: "m1@100",
            versionKey: "100",
            contentKey: "m1",
            capturedAt: T0,
            size: 1234,
            contentDigest: mail.contentDigest,
            dataKeyId: mail.dataKeyId,
            metadata: {
              labels: [{ id: "INBOX", name: "inbox" }],
              threadId: "thread-m1",
              internalDate: 1_772_000_000_000,
              historyId: "100",
            },
            chunks: "chunks" in mail ? mail.chunks : [],
          },
          deletedAtSource: null,
          firstSeenAt: T0,
          lastSeenAt: T0,
          search: mail.search,
        });
        const file = items.get("file/with/slashes");
        expect(file?.itemKey).toBe("file/with/slashes");
        expect(file?.current).toMatchObject({
          versionId: "file/with/slashes@7",
          manifestObject: "o/org/m/file/with/slashes@7",
        });
        expect(file?.current).not.toHaveProperty("chunks");
        const { description: _absent, ...metadata } = mail.metadata;
        expect(await subject.versions(resource, "m1")).toEqual([{ ...mail, metadata, endedAt: null }]);
        expect(await subject.versions(resource, "file/with/slashes")).toEqual([{ ...drive, endedAt: null }]);
      });

      it("when item keys are not plain document ids, then each is stored and found by its own key", async () => {
        const keys = ["a/b", "a%2Fb", ".", "..", "__reserved__", "with space", "x".repeat(600), "1AbC_dEf-9"];

        await catalog.writeVersions(
          resource,
          keys.map((key) => mailVersion(key, "1")),
        );

        const items = await catalog.getItems(resource, keys);
        expect(keys.map((key) => items.get(key)?.itemKey)).toEqual(keys);
        expect(keys.map((key) => items.get(key)?.currentVersionId)).toEqual(keys.map((key) => `${key}@1`));
        for (const key of keys) {
          expect((await subject.versions(resource, key)).map((version) => version.versionId)).toEqual([
            `${key}@1`,
          ]);
        }
      });

      it("when an item gets a new version, then both versions are kept and the summary moves to the new one, first seen unchanged", async () => {
        await catalog.writeVersions(resource, [mailVersion("m1", "100")]);

        await catalog.writeVersions(resource, [
          mailVersion("m1", "105", { capturedAt: T1, labels: ["INBOX", "STARRED"] }),
        ]);

        const item = (await catalog.getItems(resource, ["m1"])).get("m1");
        expect(item?.currentVersionId).toBe("m1@105");
        expect(item?.current.metadata.labels?.map((label) => label.id)).toEqual(["INBOX", "STARRED"]);
        expect(item?.firstSeenAt).toBe(T0);
        expect(item?.lastSeenAt).toBe(T1);
        expect((await subject.versions(resource, "m1")).map((version) => version.versionId).sort()).toEqual([
          "m1@100",
          "m1@105",
        ]);
      });

      it("when a version id is written again, then the stored version stays as it was and nothing is duplicated", async () => {
        const first = mailVersion("m1", "100", { runId: "run-a", subject: "first" });
        await catalog.writeVersions(resource, [first]);

        await catalog.writeVersions(resource, [
          mailVersion("m1", "100", { runId: "run-b", capturedAt: T1, subject: "again" }),
        ]);
        await catalog.writeVersions(resource, [
          mailVersion("m1", "100", { runId: "run-b", capturedAt: T1, subject: "again" }),
        ]);

        const versions = await subject.versions(resource, "m1");
        expect(versions).toHaveLength(1);
        expect(versions[0]?.runId).toBe("run-a");
        expect(versions[0]?.search).toEqual(first.search);
        expect((await catalog.getItems(resource, ["m1"])).get("m1")?.lastSeenAt).toBe(T1);
      });

      it("when a call carries the most versions allowed, then all of them are written", async () => {
        const versions = Array.from({ length: MAX_VERSIONS_PER_CALL }, (_, index) =>
          mailVersion(`bulk-${index}`, "1"),
        );

        await catalog.writeVersions(resource, versions);

        const keys = versions.map((version) => version.itemKey);
        const items = await catalog.getItems(resource, keys);
        expect(items.size).toBe(MAX_VERSIONS_PER_CALL);
        expect(await subject.versions(resource, `bulk-${MAX_VERSIONS_PER_CALL - 1}`)).toHaveLength(1);
      });

      it("when items are deleted at the source, then they are marked once, their versions are kept and a new version clears the mark", async () => {
        await catalog.writeVersions(resource, [mailVersion("m1", "100"), mailVersion("m2", "200")]);

        expect(await catalog.markDeleted(resource, ["m1", "unknown"], T1)).toBe(1);
        expect(await catalog.markDeleted(resource, ["m1"], T2)).toBe(0);

        const items = await catalog.getItems(resource, ["m1", "m2", "unknown"]);
        expect(items.get("m1")?.deletedAtSource).toBe(T1);
        expect(items.get("m2")?.deletedAtSource).toBeNull();
        expect(items.has("unknown")).toBe(false);
        expect(await subject.versions(resource, "m1")).toHaveLength(1);

        await catalog.writeVersions(resource, [mailVersion("m1", "101", { capturedAt: T2 })]);
        expect((await catalog.getItems(resource, ["m1"])).get("m1")?.deletedAtSource).toBeNull();
      });

      it("when an item gets new versions, then each superseded version ends at its successor's capture and the current one has not ended", async () => {
        await catalog.writeVersions(resource, [mailVersion("m1", "100")]);

        await catalog.writeVersions(resource, [
          mailVersion("m1", "105", { capturedAt: T1 }),
          mailVersion("m1", "106", { capturedAt: T2 }),
        ]);

        const ends = (await subject.versions(resource, "m1"))
          .map((version) => [version.versionId, version.endedAt])
          .sort();
        expect(ends).toEqual([
          ["m1@100", T1],
          ["m1@105", T2],
          ["m1@106", null],
        ]);
        expect((await catalog.getItems(resource, ["m1"])).get("m1")?.current.capturedAt).toBe(T2);
      });

      it("when an item is deleted at the source, then its current version ends at the deletion, and when it comes back with that version, the version is current again at its first capture", async () => {
        const T3 = "2026-03-01T13:00:00.000Z";
        await catalog.writeVersions(resource, [
          mailVersion("m1", "100"),
          mailVersion("m2", "200"),
          mailVersion("m3", "300"),
        ]);
        await catalog.markDeleted(resource, ["m1"], T1);
        await catalog.touchItems(resource, ["m3"], T2);
        await catalog.markUnseenDeleted(resource, "gmail-message", T2, T2);
        const endOf = async (key: string) => (await subject.versions(resource, key))[0]?.endedAt;
        expect([await endOf("m1"), await endOf("m2"), await endOf("m3")]).toEqual([T1, T2, null]);

        await catalog.writeVersions(resource, [mailVersion("m1", "100", { capturedAt: T3 })]);

        expect(await endOf("m1")).toBeNull();
        const item = (await catalog.getItems(resource, ["m1"])).get("m1");
        expect(item).toMatchObject({ deletedAtSource: null, lastSeenAt: T3 });
        expect(item?.current.capturedAt).toBe(T0);
      });

      it("when a message is dated after the backups first saw it, then its item says so, and no other item does", async () => {
        await catalog.writeVersions(resource, [
          mailVersion("later", "1", { date: T1 }),
          mailVersion("earlier", "1", { date: "2026-02-01T00:00:00.000Z" }),
          driveVersion("file", "1"),
        ]);

        const items = await catalog.getItems(resource, ["later", "earlier", "file"]);
        expect(items.get("later")?.datedLater).toBe(true);
        expect(items.get("earlier")).not.toHaveProperty("datedLater");
        expect(items.get("file")).not.toHaveProperty("datedLater");
      });

      it("when a full listing touches the items it saw, then the unseen items of that kind are marked deleted, once", async () => {
        const file = { ...mailVersion("f1", "7"), kind: "drive-file" as const };
        await catalog.writeVersions(resource, [
          mailVersion("m1", "100"),
          mailVersion("m2", "200"),
          mailVersion("m3", "300"),
          file,
        ]);
        await catalog.markDeleted(resource, ["m3"], T0);
        await catalog.touchItems(resource, ["m1", "unknown"], T2);

        expect(await catalog.markUnseenDeleted(resource, "gmail-message", T1, T2)).toBe(1);
        expect(await catalog.markUnseenDeleted(resource, "gmail-message", T1, T2)).toBe(0);
        const items = await catalog.getItems(resource, ["m1", "m2", "m3", "f1", "unknown"]);
        expect(items.get("m1")).toMatchObject({ deletedAtSource: null, lastSeenAt: T2 });
        expect(items.get("m2")?.deletedAtSource).toBe(T2);
        expect(items.get("m3")?.deletedAtSource).toBe(T0);
        expect(items.get("f1")?.deletedAtSource).toBeNull();
        expect(items.has("unknown")).toBe(false);
      });

      it("when the same item key is used in two resources, then each resource has its own item", async () => {
        const other = unique("other@example.test");
        await catalog.writeVersions(resource, [mailVersion("m1", "100")]);

        expect((await catalog.getItems(other, ["m1"])).size).toBe(0);
        await catalog.markDeleted(other, ["m1"], T1);
        expect((await catalog.getItems(resource, ["m1"])).get("m1")?.deletedAtSource).toBeNull();
      });
    });

    describe("Gmail label names", () => {
      it("when a label is renamed, then the items carrying it take the new name in their search fields and current labels, their versions keep the old one, and the label names are kept", async () => {
        expect(await catalog.mailLabelNames(resource)).toBeUndefined();
        await catalog.writeVersions(resource, [
          mailVersion("m1", "100", { labels: ["INBOX", "Label_1"] }),
          mailVersion("m2", "101", { labels: ["Label_2"] }),
          mailVersion("m3", "102", { labels: ["Label_1", "Label_2"] }),
        ]);
        // Swapped names: each item is renamed by label id, not by name.
        const renames = [
          { id: "Label_1", from: "label_1", to: "Label_2-Neu" },
          { id: "Label_2", from: "label_2", to: "label_1" },
        ];
        const labels = { Label_1: "Label_2-Neu", Label_2: "label_1" };
        expect(await catalog.mailLabelsCheckedAt(resource)).toBeUndefined();
        await catalog.renameMailLabels(resource, renames, labels);
        await catalog.renameMailLabels(resource, renames, labels, T1);
        expect(await catalog.mailLabelsCheckedAt(resource)).toBe(T1);

        const items = await catalog.getItems(resource, ["m1", "m2", "m3"]);
        const searchLabels = (key: string) => {
          const search = items.get(key)?.search;
          return search?.kind === "mail" ? search.labels : undefined;
        };
        expect(searchLabels("m1")).toEqual(["inbox", "label_2-neu"]);
        expect(searchLabels("m2")).toEqual(["label_1"]);
        expect(searchLabels("m3")).toEqual(["label_2-neu", "label_1"]);
        expect(items.get("m3")?.current.metadata.labels).toEqual([
          { id: "Label_1", name: "Label_2-Neu" },
          { id: "Label_2", name: "label_1" },
        ]);
        const [version] = await subject.versions(resource, "m3");
        expect(version?.metadata.labels).toEqual([
          { id: "Label_1", name: "label_1" },
          { id: "Label_2", name: "label_2" },
        ]);
        expect(await catalog.mailLabelNames(resource)).toEqual(labels);
      });
    });

    describe("chunk index", () => {
      it("when chunks are recorded, then they are known, and recording them again refreshes them but keeps the first run", async () => {
        const stored = hex(unique("stored"));
        const reused = hex(unique("reused"));
        const absent = hex(unique("absent"));
        await catalog.recordChunks(
          [{ id: stored, size: 1000, storedSize: 700, dataKeyId: "key-1" }, { id: reused }],
          "run-a",
          T0,
        );

        expect([...(await catalog.knownChunks([stored, reused, absent]))].sort()).toEqual(
          [stored, reused].sort(),
        );
        await catalog.recordChunks([{ id: stored }], "run-b", T1);

        expect(await subject.chunkEntry(stored)).toEqual({
          size: 1000,
          storedSize: 700,
          dataKeyId: "key-1",
          firstRunId: "run-a",
          lastReferencedAt: T1,
        });
        expect(await subject.chunkEntry(reused)).toEqual({ firstRunId: "run-a", lastReferencedAt: T0 });
        expect(await subject.chunkEntry(absent)).toBeUndefined();
        expect((await catalog.knownChunks([])).size).toBe(0);
      });
    });

    describe("runs and leases", () => {
      let runId: string;
      const until = "2026-03-01T10:10:00.000Z";

      beforeEach(async () => {
        runId = unique("run");
        await subject.createRun({ runId, resourceId: resource });
      });

      it("when a pending run's lease is taken, then the run is running with that lease and started now", async () => {
        expect(await catalog.takeLease(runId, "worker-1", until, T0)).toBe("taken");

        expect(await catalog.loadRun(runId)).toMatchObject({
          runId,
          resourceId: resource,
          state: "running",
          startedAt: T0,
          lease: { holder: "worker-1", until },
          cursor: null,
          progress,
          itemErrors: [],
          itemErrorCount: 0,
        });
      });

      it("when there is no such run, then the lease is missing and loading finds nothing", async () => {
        expect(await catalog.takeLease(unique("nothing"), "worker-1", until, T0)).toBe("missing");
        expect(await catalog.loadRun(unique("nothing"))).toBeUndefined();
      });

      it("when another worker's lease is live, then it is held by another; once expired, it is taken over and the start stays", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);

        expect(
          await catalog.takeLease(runId, "worker-2", "2026-03-01T10:20:00.000Z", "2026-03-01T10:05:00.000Z"),
        ).toBe("held-by-another");
        expect((await catalog.loadRun(runId))?.lease?.holder).toBe("worker-1");
        expect(
          await catalog.takeLease(runId, "worker-2", "2026-03-01T10:30:00.000Z", "2026-03-01T10:15:00.000Z"),
        ).toBe("taken");

        const run = await catalog.loadRun(runId);
        expect(run?.lease).toEqual({ holder: "worker-2", until: "2026-03-01T10:30:00.000Z" });
        expect(run?.startedAt).toBe(T0);
        await expect(
          catalog.saveCheckpoint(runId, "worker-1", {
            cursor: "9",
            progress,
            unitsUsed: 1,
            newItemErrors: [],
            listing: null,
            services: {},
          }),
        ).rejects.toBeInstanceOf(LeaseLostError);
      });

      it("when the holder takes its lease again, then it is taken with the new expiry", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);

        expect(
          await catalog.takeLease(runId, "worker-1", "2026-03-01T10:20:00.000Z", "2026-03-01T10:05:00.000Z"),
        ).toBe("taken");
        expect((await catalog.loadRun(runId))?.lease?.until).toBe("2026-03-01T10:20:00.000Z");
      });

      it("when the holder checkpoints, then cursor, progress, units and each service's outcome are saved", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);

        const services = {
          gmail: { state: "unavailable" as const, detail: "failedPrecondition", skipped: {} },
          drive: { skipped: { "not-exportable": 2, cannotDownloadFile: 1 }, notes: { "external-owner": 3 } },
        };
        const partial = {
          kind: "drive-file" as const,
          itemKey: "file-1",
          versionKey: "7",
          contentKey: "rev-7",
          offset: 1_048_576,
          manifestObject: "o/org/m/file-1@7~partial-1048576",
          manifestVersionId: "file-1@7~partial-1048576",
          dataKeyId: "key-1",
          digestState: "c3RhdGU=",
          md5State: "bWQ1",
        };
        await catalog.saveCheckpoint(runId, "worker-1", {
          cursor: "12345",
          progress: { items: 3, bytes: 3000, storedBytes: 2100 },
          unitsUsed: 17,
          newItemErrors: [],
          listing: { kind: "drive-file", startedAt: T0 },
          services,
          partial,
        });

        expect(await catalog.loadRun(runId)).toMatchObject({
          state: "running",
          cursor: "12345",
          progress: { items: 3, bytes: 3000, storedBytes: 2100 },
          unitsUsed: 17,
          services,
          partial,
          listing: { kind: "drive-file", startedAt: T0 },
        });
        await catalog.saveCheckpoint(runId, "worker-1", {
          cursor: "12346",
          progress: { items: 3, bytes: 3000, storedBytes: 2100 },
          unitsUsed: 17,
          newItemErrors: [],
          listing: null,
          services: {},
        });
        expect((await catalog.loadRun(runId))?.listing ?? null).toBeNull();
        expect((await catalog.loadRun(runId))?.partial ?? null).toBeNull();
      });

      it("when the live progress is saved, then the run carries it beside its recorded progress", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);
        await catalog.saveLiveProgress(runId, { items: 40, bytes: 40_000, storedBytes: 30_000 });

        const run = await catalog.loadRun(runId);
        expect(run?.liveProgress).toEqual({ items: 40, bytes: 40_000, storedBytes: 30_000 });
        expect(run?.progress.items).toBe(0);
      });

      it("when a worker without the lease checkpoints or finishes, then it gets LeaseLostError and nothing changes", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);
        await catalog.saveCheckpoint(runId, "worker-1", {
          cursor: "5",
          progress,
          unitsUsed: 2,
          newItemErrors: [],
          listing: null,
          services: {},
        });

        await expect(
          catalog.saveCheckpoint(runId, "worker-2", {
            cursor: "1",
            progress,
            unitsUsed: 9,
            newItemErrors: [],
            listing: null,
            services: {},
          }),
        ).rejects.toBeInstanceOf(LeaseLostError);
        await expect(catalog.finishRun(runId, "worker-2", { state: "succeeded" }, T1)).rejects.toBeInstanceOf(
          LeaseLostError,
        );

        expect(await catalog.loadRun(runId)).toMatchObject({
          state: "running",
          cursor: "5",
          unitsUsed: 2,
          lease: { holder: "worker-1", until },
        });
      });

      it("when the holder releases its lease, then the run stays running without a lease and another worker takes it", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);
        await catalog.releaseLease(runId, "worker-2");
        expect((await catalog.loadRun(runId))?.lease?.holder).toBe("worker-1");

        await catalog.releaseLease(runId, "worker-1");

        const run = await catalog.loadRun(runId);
        expect(run?.state).toBe("running");
        expect(run?.lease).toBeNull();
        expect(await catalog.takeLease(runId, "worker-2", until, T0)).toBe("taken");
        await expect(
          catalog.saveCheckpoint(runId, "worker-1", {
            cursor: "1",
            progress,
            unitsUsed: 0,
            newItemErrors: [],
            listing: null,
            services: {},
          }),
        ).rejects.toBeInstanceOf(LeaseLostError);
      });

      it("when the holder finishes the run, then it is finished without a lease and can be neither leased nor checkpointed", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);

        await catalog.finishRun(runId, "worker-1", { state: "succeeded" }, T1);

        expect(await catalog.loadRun(runId)).toMatchObject({
          state: "succeeded",
          finishedAt: T1,
          lease: null,
        });
        expect(await catalog.takeLease(runId, "worker-2", until, T2)).toBe("finished");
        expect(await catalog.takeLease(runId, "worker-1", until, T2)).toBe("finished");
        await expect(
          catalog.saveCheckpoint(runId, "worker-1", {
            cursor: "1",
            progress,
            unitsUsed: 0,
            newItemErrors: [],
            listing: null,
            services: {},
          }),
        ).rejects.toBeInstanceOf(LeaseLostError);
        await expect(catalog.finishRun(runId, "worker-1", { state: "succeeded" }, T2)).rejects.toBeInstanceOf(
          LeaseLostError,
        );
      });

      it("when the holder fails the run, then the run keeps its failure reason", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);

        await catalog.finishRun(
          runId,
          "worker-1",
          { state: "failed", failureReason: "google-api-error" },
          T1,
        );

        expect(await catalog.loadRun(runId)).toMatchObject({
          state: "failed",
          failureReason: "google-api-error",
          finishedAt: T1,
          lease: null,
        });
      });

      it("when item errors exceed the cap, then the first ones are kept and all are counted", async () => {
        await catalog.takeLease(runId, "worker-1", until, T0);
        const errors = (from: number, count: number) =>
          Array.from({ length: count }, (_, index) => ({
            itemKey: `m${from + index}`,
            reason: "badRequest",
          }));

        await catalog.saveCheckpoint(runId, "worker-1", {
          cursor: "1",
          progress,
          unitsUsed: 0,
          newItemErrors: errors(0, 60),
          listing: null,
          services: {},
        });
        await catalog.saveCheckpoint(runId, "worker-1", {
          cursor: "2",
          progress,
          unitsUsed: 0,
          newItemErrors: errors(60, 70),
          listing: null,
          services: {},
        });

        const run = await catalog.loadRun(runId);
        expect(run?.itemErrorCount).toBe(130);
        expect(run?.itemErrors).toHaveLength(MAX_ITEM_ERRORS);
        expect(run?.itemErrors[0]).toEqual({ itemKey: "m0", reason: "badRequest" });
        expect(run?.itemErrors[MAX_ITEM_ERRORS - 1]).toEqual({
          itemKey: `m${MAX_ITEM_ERRORS - 1}`,
          reason: "badRequest",
        });
      });

      it("when a run was created with a cursor, then loading it gives that cursor", async () => {
        const resumed = unique("run");
        await subject.createRun({ runId: resumed, resourceId: resource, cursor: "777" });

        expect(await catalog.loadRun(resumed)).toMatchObject({
          runId: resumed,
          state: "pending",
          cursor: "777",
        });
      });
    });
  });
}
