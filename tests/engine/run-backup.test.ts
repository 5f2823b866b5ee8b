/**
 * The backup runner against the Workspace emulator in-process: Gmail and Drive sources through the
 * official clients, the in-memory blob store and catalog. Every backed-up item is restored from its
 * objects and compared with the emulator's bytes.
 */
import { randomBytes } from "node:crypto";
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness, testMessage } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import type { ChunkRef, ObjectScope } from "../../functions/src/engine/format/chunk-codec";
import { EncryptionError, EncryptionKeyError } from "../../functions/src/engine/format/errors";
import { deriveKeys, newDataKey, type DataKey } from "../../functions/src/engine/format/keys";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import type { CatalogVersion, Checkpoint } from "../../functions/src/engine/runner/catalog";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup, type RunBackupResult } from "../../functions/src/engine/runner/run-backup";
import { DriveSource } from "../../functions/src/engine/drive/source";
import type { GmailSource } from "../../functions/src/engine/gmail/source";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import type { ChangeBatch, FetchedItem, ItemRef, Source } from "../../functions/src/engine/sources/source";
import { Mailboxes, chunkObjectName, chunksOf, meter, restoreVersion } from "../support/backup";

const ORG = "org-runner-test";
const DOC = "application/vnd.google-apps.document";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
});

afterAll(async () => {
  await harness.stop();
});

let mail: Mailboxes;

beforeAll(() => {
  mail = new Mailboxes(harness);
});

const newUser = (prefix: string): Promise<string> => mail.newUser(prefix);
const addMessage = (user: string, subject: string, raw?: Buffer): Promise<string> =>
  mail.addMessage(user, subject, raw);
const storedRaw = (user: string, id: string): Buffer => mail.storedRaw(user, id);
const gmailSource = (user: string, caller: GoogleCaller, pageSize = 2): GmailSource =>
  mail.gmailSource(user, caller, pageSize);

/** One backup store of an organisation: objects, catalog, data key. */
/**
 * A catalog that can play a worker dying just before a checkpoint: from then on, nothing that worker
 * does reaches the catalog (until `revive`).
 */
class CrashingCatalog extends MemoryCatalog {
  crashOnNextCheckpoint = false;
  private dead = false;

  revive(): void {
    this.dead = false;
  }

  override async saveCheckpoint(runId: string, holder: string, checkpoint: Checkpoint): Promise<void> {
    if (this.crashOnNextCheckpoint) {
      this.crashOnNextCheckpoint = false;
      this.dead = true;
    }
    if (this.dead) throw new Error("The worker is gone");
    return super.saveCheckpoint(runId, holder, checkpoint);
  }

  override async finishRun(...args: Parameters<MemoryCatalog["finishRun"]>): Promise<void> {
    if (this.dead) throw new Error("The worker is gone");
    return super.finishRun(...args);
  }
}

class Backups {
  /** Same objects and same versions (ids and content) as `other`, and internally consistent. */
  async expectSameAs(other: Backups, user: string): Promise<void> {
    expect(await this.objectNames()).toEqual(await other.objectNames());
    const ids = (backups: Backups) =>
      backups.catalog
        .versions(user)
        .map((version) => `${version.versionId} ${version.contentDigest}`)
        .sort();
    expect(ids(this)).toEqual(ids(other));
    await this.expectConsistent(user);
  }

  readonly blobStore = new MemoryBlobStore();
  readonly catalog = new CrashingCatalog();
  readonly scope: ObjectScope;
  private runs = 0;
  private readonly cursors = new Map<string, string | null>();

  constructor(readonly dataKey: DataKey = newDataKey()) {
    this.scope = { organizationId: ORG, keys: deriveKeys(dataKey) };
  }

  /** A new run of the resource, starting from the previous run's cursor. */
  newRun(resourceId: string): { runId: string; resourceId: string } {
    this.runs += 1;
    const runId = `run-${this.runs}`;
    this.catalog.createRun({ runId, resourceId, cursor: this.cursors.get(resourceId) ?? null });
    return { runId, resourceId };
  }

  async run(
    run: { runId: string; resourceId: string },
    source: Source,
    options: {
      signal?: AbortSignal;
      usage?: { units: number } & object;
      onCheckpoint?: () => void;
      now?: () => number;
    } = {},
  ): Promise<RunBackupResult> {
    const result = await runBackup({
      run,
      source,
      blobStore: this.blobStore,
      catalog: this.catalog,
      dataKey: this.dataKey,
      organizationId: ORG,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
      ...(options.usage ? { usage: options.usage as never } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    this.cursors.set(run.resourceId, this.catalog.run(run.runId)?.cursor ?? null);
    return result;
  }

  /** A new run to its end. */
  async backup(resourceId: string, source: Source, usage?: { units: number }): Promise<RunBackupResult> {
    return this.run(this.newRun(resourceId), source, usage ? { usage } : {});
  }

  async chunksOf(version: CatalogVersion): Promise<ChunkRef[]> {
    return chunksOf(this.blobStore, this.scope, version);
  }

  /** A version's content, from its objects. */
  async restore(version: CatalogVersion): Promise<Buffer> {
    return restoreVersion(this.blobStore, this.scope, version);
  }

  /** The current version of an item. */
  current(resourceId: string, itemKey: string): CatalogVersion {
    const item = this.catalog.item(resourceId, itemKey);
    const version = this.catalog
      .versions(resourceId, itemKey)
      .find((v) => v.versionId === item?.currentVersionId);
    if (!version) throw new Error(`no current version of ${itemKey}`);
    return version;
  }

  async objectNames(): Promise<string[]> {
    const names: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.blobStore.list(`o/${ORG}/`, pageToken ? { pageToken } : {});
      names.push(...page.names);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return names;
  }

  /** Every version names only chunks that exist and that the chunk index knows. */
  async expectConsistent(resourceId: string): Promise<void> {
    for (const version of this.catalog.versions(resourceId)) {
      for (const chunk of await this.chunksOf(version)) {
        expect(this.catalog.chunkRef(chunk.id)).toBeDefined();
        expect(await this.blobStore.exists(chunkObjectName(ORG, chunk.id))).toBe(true);
      }
    }
  }
}

async function mailbox(count: number): Promise<{ user: string; ids: string[] }> {
  const user = await newUser("runner");
  const ids: string[] = [];
  for (let index = 0; index < count; index++) ids.push(await addMessage(user, `Message number ${index}`));
  return { user, ids };
}

describe("Backup runner: Gmail", () => {
  it("when a mailbox is backed up in full, then every message has a version whose objects decode to the exact raw message", async () => {
    const { user, ids } = await mailbox(7);
    const backups = new Backups();
    const caller = meter();

    const result = await backups.backup(user, gmailSource(user, caller), caller.usage);

    expect(result.outcome).toBe("succeeded");
    expect(
      backups.catalog
        .items(user)
        .map((item) => item.itemKey)
        .sort(),
    ).toEqual([...ids].sort());
    let sourceBytes = 0;
    for (const id of ids) {
      const version = backups.current(user, id);
      const raw = storedRaw(user, id);
      sourceBytes += raw.length;
      expect((await backups.restore(version)).equals(raw)).toBe(true);
      expect(version.size).toBe(raw.length);
      expect(version.search.kind).toBe("mail");
      expect(version.metadata.labels?.length).toBeGreaterThan(0);
    }
    const run = backups.catalog.run("run-1");
    expect(run?.state).toBe("succeeded");
    expect(run?.progress.items).toBe(ids.length);
    expect(run?.progress.bytes).toBe(sourceBytes);
    expect(run?.unitsUsed).toBe(caller.usage.units);
    await backups.expectConsistent(user);
    for (const name of await backups.objectNames()) {
      expect((await backups.blobStore.get(name)).includes("Message number")).toBe(false);
    }
    console.log(
      `Gmail full backup: ${ids.length} messages, stored/source bytes ${(
        (run?.progress.storedBytes ?? 0) / sourceBytes
      ).toFixed(3)}, ${(caller.usage.units / ids.length).toFixed(2)} units per message`,
    );
  });

  it("when an unchanged mailbox is backed up again, then nothing is written and the run costs at most 2 units", async () => {
    const { user } = await mailbox(5);
    const backups = new Backups();
    expect((await backups.backup(user, gmailSource(user, meter()))).outcome).toBe("succeeded");
    const objects = backups.blobStore.size;
    const versions = backups.catalog.versions(user).length;
    const caller = meter();

    const result = await backups.backup(user, gmailSource(user, caller), caller.usage);

    expect(result.outcome).toBe("succeeded");
    expect(backups.blobStore.size).toBe(objects);
    expect(backups.catalog.versions(user)).toHaveLength(versions);
    expect(backups.catalog.run("run-2")?.progress).toEqual({ items: 0, bytes: 0, storedBytes: 0 });
    expect(caller.usage.units).toBeLessThanOrEqual(2);
    console.log(`Gmail incremental on an unchanged mailbox: ${caller.usage.units} units`);
  });

  it("when messages are added, deleted and relabelled, then the next run records exactly those changes", async () => {
    const { user, ids } = await mailbox(4);
    const [kept, doomed, relabelled] = ids as [string, string, string, string];
    const backups = new Backups();
    expect((await backups.backup(user, gmailSource(user, meter()))).outcome).toBe("succeeded");
    const before = backups.catalog.versions(user);
    const relabelledBefore = backups.current(user, relabelled);
    const objectsBefore = backups.blobStore.size;

    const added = await addMessage(user, "Added later");
    expect((await harness.admin("DELETE", `/users/${user}/gmail/messages/${doomed}`)).status).toBe(204);
    const modified = await harness.admin("POST", `/users/${user}/gmail/messages/${relabelled}:modify`, {
      addLabelIds: ["STARRED"],
    });
    expect(modified.status).toBe(200);

    const result = await backups.backup(user, gmailSource(user, meter()));

    expect(result.outcome).toBe("succeeded");
    const after = backups.catalog.versions(user);
    expect(after).toHaveLength(before.length + 2);
    const beforeIds = new Set(before.map((version) => version.versionId));
    const newVersions = after.filter((version) => !beforeIds.has(version.versionId));
    expect(newVersions.map((version) => version.itemKey).sort()).toEqual([added, relabelled].sort());
    // Relabel: a new version with the new labels and the same chunk list.
    const relabelledNow = backups.current(user, relabelled);
    expect(relabelledNow.versionId).not.toBe(relabelledBefore.versionId);
    expect(relabelledNow.metadata.labels?.map((label) => label.id)).toContain("STARRED");
    expect("chunks" in relabelledNow && relabelledNow.chunks).toEqual(
      "chunks" in relabelledBefore && relabelledBefore.chunks,
    );
    expect(relabelledNow.contentDigest).toBe(relabelledBefore.contentDigest);
    expect((await backups.restore(relabelledNow)).equals(storedRaw(user, relabelled))).toBe(true);
    // Delete: marked, versions kept and restorable.
    const doomedItem = backups.catalog.item(user, doomed);
    expect(doomedItem?.deletedAtSource).not.toBeNull();
    expect(backups.catalog.versions(user, doomed)).toHaveLength(1);
    expect((await backups.restore(backups.current(user, doomed))).length).toBeGreaterThan(0);
    // Untouched: unchanged.
    expect(backups.catalog.item(user, kept)?.deletedAtSource).toBeNull();
    expect(backups.catalog.versions(user, kept)).toHaveLength(1);
    // Only the added message brought objects.
    expect(backups.blobStore.size).toBeGreaterThan(objectsBefore);
    expect((await backups.restore(backups.current(user, added))).equals(storedRaw(user, added))).toBe(true);
    await backups.expectConsistent(user);
  });

  it("when the saved history expired and messages were deleted meanwhile, then the resync marks exactly those deleted and backs up nothing twice", async () => {
    const { user, ids } = await mailbox(5);
    const [kept, gone] = ids as [string, string, string, string, string];
    const backups = new Backups();
    let clock = Date.parse("2026-05-01T08:00:00.000Z");
    const now = () => (clock += 1000);
    expect((await backups.run(backups.newRun(user), gmailSource(user, meter()), { now })).outcome).toBe(
      "succeeded",
    );
    const versionsBefore = backups.catalog.versions(user).length;

    expect((await harness.admin("DELETE", `/users/${user}/gmail/messages/${gone}`)).status).toBe(204);
    const added = await addMessage(user, "Arrived during the gap");
    expect((await harness.admin("POST", `/users/${user}/gmail/history:expire`)).status).toBe(200);

    const result = await backups.run(backups.newRun(user), gmailSource(user, meter()), { now });
    expect(result.outcome).toBe("succeeded");
    expect(backups.catalog.item(user, gone)?.deletedAtSource).not.toBeNull();
    expect(backups.catalog.item(user, kept)?.deletedAtSource).toBeNull();
    expect(
      ids.filter((id) => id !== gone).every((id) => backups.catalog.item(user, id)?.deletedAtSource === null),
    ).toBe(true);
    expect(backups.catalog.item(user, added)?.deletedAtSource).toBeNull();
    // Only the new message got a version; the deleted one keeps its version, restorable.
    expect(backups.catalog.versions(user)).toHaveLength(versionsBefore + 1);
    expect((await backups.restore(backups.current(user, gone))).length).toBeGreaterThan(0);
    expect(backups.catalog.run(`run-2`)?.listing ?? null).toBeNull();
    await backups.expectConsistent(user);
  });

  it("when a message fails for good in one run, then the next run fetches it again first and backs it up", async () => {
    const { user, ids } = await mailbox(3);
    const backups = new Backups();
    const fault = await harness.admin("POST", "/faults", {
      method: "gmail.users.messages.get",
      user,
      action: { kind: "error", status: 400 },
      times: 1,
    });
    expect(fault.status).toBe(200);

    const first = await backups.backup(user, new ResourceSource([gmailSource(user, meter())]));
    expect(first).toMatchObject({ outcome: "succeeded", itemErrors: 1 });
    const failed = backups.catalog.run("run-1")?.itemErrors ?? [];
    expect(failed).toEqual([expect.objectContaining({ kind: "gmail-message", reason: "badRequest" })]);
    expect(backups.catalog.items(user)).toHaveLength(2);

    const retry = failed.map((error) => ({ kind: "gmail" as const, itemKey: error.itemKey }));
    const second = await backups.backup(user, new ResourceSource([gmailSource(user, meter())], retry));
    expect(second).toMatchObject({ outcome: "succeeded", itemErrors: 0 });
    expect(
      backups.catalog
        .items(user)
        .map((item) => item.itemKey)
        .sort(),
    ).toEqual([...ids].sort());
    const retried = failed[0]!.itemKey;
    expect((await backups.restore(backups.current(user, retried))).equals(storedRaw(user, retried))).toBe(
      true,
    );
    await backups.expectConsistent(user);
  });

  it("when two mailboxes of the organisation hold the same attachment, then its chunks are stored once", async () => {
    const attachment = randomBytes(600 * 1024);
    const backups = new Backups();
    const users = [await newUser("shared"), await newUser("shared")];
    const ids: string[] = [];
    for (const user of users) {
      ids.push(
        await addMessage(
          user,
          "Shared",
          testMessage({
            subject: `Quarterly figures for ${user}`,
            to: user,
            attachments: [
              { filename: "figures.bin", contentType: "application/octet-stream", data: attachment },
            ],
          }),
        ),
      );
    }

    for (const user of users)
      expect((await backups.backup(user, gmailSource(user, meter()))).outcome).toBe("succeeded");

    const [first, second] = users.map((user, index) => backups.current(user, ids[index] as string)) as [
      CatalogVersion,
      CatalogVersion,
    ];
    const firstChunks = (await backups.chunksOf(first)).map((chunk) => chunk.id);
    const secondChunks = (await backups.chunksOf(second)).map((chunk) => chunk.id);
    const shared = firstChunks.filter((id) => secondChunks.includes(id));
    const distinct = new Set([...firstChunks, ...secondChunks]);
    expect(shared.length).toBeGreaterThanOrEqual(firstChunks.length - 2);
    expect(backups.blobStore.size).toBe(distinct.size);
    expect(second.storedBytes).toBeLessThan(first.storedBytes / 2);
    for (const [index, user] of users.entries()) {
      const version = index === 0 ? first : second;
      expect((await backups.restore(version)).equals(storedRaw(user, ids[index] as string))).toBe(true);
    }
    console.log(
      `Shared attachment: ${shared.length} of ${secondChunks.length} chunks of the second mail were stored already`,
    );
  });

  it("when a batch takes a while, then the run saves its live progress before the batch is recorded, and never more often than every 2 s", async () => {
    const { user } = await mailbox(7);
    const backups = new Backups();
    // Each reading of the clock moves it 700 ms on.
    let clock = Date.parse("2026-11-25T08:00:00Z");
    const now = () => (clock += 700);
    const live: { items: number; at: number }[] = [];
    const save = backups.catalog.saveLiveProgress.bind(backups.catalog);
    jest.spyOn(backups.catalog, "saveLiveProgress").mockImplementation((runId, progress) => {
      live.push({ items: progress.items, at: clock });
      return save(runId, progress);
    });
    let firstCheckpoint: number | undefined;
    const run = backups.newRun(user);
    // One batch of all seven messages.
    const result = await backups.run(run, gmailSource(user, meter(), 10), {
      now,
      onCheckpoint: () => (firstCheckpoint ??= live.length),
    });

    expect(result.outcome).toBe("succeeded");
    // Saved while the batch was under way, with part of it, before the first checkpoint recorded it.
    expect(firstCheckpoint).toBeGreaterThan(0);
    const early = live.slice(0, firstCheckpoint);
    expect(early.some((entry) => entry.items > 0 && entry.items < 7)).toBe(true);
    for (const [index, entry] of live.entries()) {
      if (index > 0) expect(entry.at - (live[index - 1]?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
    }
    expect(backups.catalog.run(run.runId)?.liveProgress?.items).toBeGreaterThan(0);
  });

  it("when a run is stopped after its first batch and run again, then it completes with the same objects and versions as an uninterrupted run", async () => {
    const { user } = await mailbox(7);
    const dataKey = newDataKey();
    const uninterrupted = new Backups(dataKey);
    expect((await uninterrupted.backup(user, gmailSource(user, meter()))).outcome).toBe("succeeded");

    const resumed = new Backups(dataKey);
    const run = resumed.newRun(user);
    const controller = new AbortController();
    const first = await resumed.run(run, gmailSource(user, meter()), {
      signal: controller.signal,
      onCheckpoint: () => controller.abort(),
    });
    expect(first.outcome).toBe("continue");
    const partial = resumed.catalog.run(run.runId);
    expect(partial?.state).toBe("running");
    expect(partial?.progress.items).toBe(2);
    expect(resumed.catalog.versions(user)).toHaveLength(2);

    const second = await resumed.run(run, gmailSource(user, meter()));

    expect(second.outcome).toBe("succeeded");
    expect(resumed.catalog.run(run.runId)?.progress.items).toBe(7);
    await resumed.expectSameAs(uninterrupted, user);
  });

  it("when a run is stopped in the middle of a batch, then what it finished is kept, the batch is repeated and nothing is duplicated", async () => {
    const { user } = await mailbox(7);
    const dataKey = newDataKey();
    const uninterrupted = new Backups(dataKey);
    expect((await uninterrupted.backup(user, gmailSource(user, meter()))).outcome).toBe("succeeded");
    const resumed = new Backups(dataKey);
    const run = resumed.newRun(user);
    const controller = new AbortController();
    const inner = gmailSource(user, meter());
    let fetches = 0;
    const stoppingSource: Source = {
      kind: inner.kind,
      listChanges: (cursor) => inner.listChanges(cursor),
      fetch: async (ref) => {
        const fetched = await inner.fetch(ref);
        fetches += 1;
        if (fetches === 3) controller.abort();
        return fetched;
      },
    };

    const first = await resumed.run(run, stoppingSource, { signal: controller.signal });

    expect(first.outcome).toBe("continue");
    // The items fetched before the stop (and those already in flight beside them) are kept and counted.
    const kept = resumed.catalog.versions(user).length;
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(7);
    expect(resumed.catalog.run(run.runId)?.progress.items).toBe(kept);
    expect(resumed.catalog.run(run.runId)?.lease).toBeNull();

    const second = await resumed.run(run, gmailSource(user, meter()));

    expect(second.outcome).toBe("succeeded");
    expect(resumed.catalog.run(run.runId)?.progress.items).toBe(7);
    await resumed.expectSameAs(uninterrupted, user);
  });

  it("when a run is delivered again while another worker holds its lease, or after it finished, then it does nothing", async () => {
    const { user } = await mailbox(2);
    const backups = new Backups();
    const run = backups.newRun(user);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await backups.catalog.takeLease(run.runId, "other-worker", future, new Date().toISOString())).toBe(
      "taken",
    );

    const whileLeased = await backups.run(run, gmailSource(user, meter()));

    expect(whileLeased).toEqual({ outcome: "skipped", why: "leased" });
    expect(backups.blobStore.size).toBe(0);
    expect(backups.catalog.versions(user)).toHaveLength(0);

    await backups.catalog.releaseLease(run.runId, "other-worker");
    expect((await backups.run(run, gmailSource(user, meter()))).outcome).toBe("succeeded");
    const objects = backups.blobStore.size;
    const caller = meter();

    const afterFinish = await backups.run(run, gmailSource(user, caller));

    expect(afterFinish).toEqual({ outcome: "skipped", why: "finished" });
    expect(backups.blobStore.size).toBe(objects);
    expect(caller.usage.calls).toBe(0);
  });

  it("when the object store fails during a run, then the run fails with object-storage-unavailable, nothing is half-recorded and the next run completes", async () => {
    const { user, ids } = await mailbox(6);
    const backups = new Backups();
    const run = backups.newRun(user);

    const failed = await backups.run(run, gmailSource(user, meter()), {
      onCheckpoint: () => backups.blobStore.failNext(1_000),
    });

    expect(failed).toMatchObject({ outcome: "failed", failureReason: "object-storage-unavailable" });
    const record = backups.catalog.run(run.runId);
    expect(record?.state).toBe("failed");
    expect(record?.failureReason).toBe("object-storage-unavailable");
    expect(record?.lease).toBeNull();
    expect(backups.catalog.versions(user)).toHaveLength(2);
    expect(record?.progress.items).toBe(2);
    backups.blobStore.failNext(0);
    await backups.expectConsistent(user);

    const next = await backups.backup(user, gmailSource(user, meter()));

    expect(next.outcome).toBe("succeeded");
    expect(backups.catalog.versions(user)).toHaveLength(ids.length);
    for (const id of ids) {
      expect((await backups.restore(backups.current(user, id))).equals(storedRaw(user, id))).toBe(true);
    }
    await backups.expectConsistent(user);
  });

  it("when a worker dies after writing a batch's versions but before its checkpoint, then the run is taken over once its lease expires and finishes without duplicating anything", async () => {
    const { user } = await mailbox(6);
    const dataKey = newDataKey();
    const uninterrupted = new Backups(dataKey);
    expect((await uninterrupted.backup(user, gmailSource(user, meter()))).outcome).toBe("succeeded");
    const crashed = new Backups(dataKey);
    let checkpoints = 0;
    const run = crashed.newRun(user);
    await crashed.run(run, gmailSource(user, meter()), {
      onCheckpoint: () => {
        checkpoints += 1;
        if (checkpoints === 1) crashed.catalog.crashOnNextCheckpoint = true;
      },
    });
    crashed.catalog.revive();
    const died = crashed.catalog.run(run.runId);
    expect(died?.state).toBe("running");
    expect(died?.progress.items).toBe(2);
    expect(crashed.catalog.versions(user)).toHaveLength(4);
    expect(await crashed.run(run, gmailSource(user, meter()))).toEqual({ outcome: "skipped", why: "leased" });

    const later = Date.now() + 60 * 60_000;
    const takenOver = await crashed.run(run, gmailSource(user, meter()), { now: () => later });

    expect(takenOver.outcome).toBe("succeeded");
    await crashed.expectSameAs(uninterrupted, user);
  });

  describe("with faults", () => {
    afterEach(async () => {
      await harness.admin("DELETE", "/faults");
    });

    it("when Google refuses one message for good, then the run records it as an item error and backs up the rest", async () => {
      const { user, ids } = await mailbox(4);
      const backups = new Backups();
      const fault = await harness.admin("POST", "/faults", {
        method: "gmail.users.messages.get",
        user,
        sequence: [{ kind: "error", status: 400 }],
      });
      expect(fault.status).toBe(200);

      const result = await backups.backup(user, gmailSource(user, meter()));

      expect(result).toMatchObject({ outcome: "succeeded", itemErrors: 1 });
      const run = backups.catalog.run("run-1");
      expect(run?.itemErrorCount).toBe(1);
      expect(run?.itemErrors).toEqual([
        { itemKey: expect.any(String), reason: "badRequest", kind: "gmail-message" },
      ]);
      const failed = run?.itemErrors[0]?.itemKey;
      expect(
        backups.catalog
          .items(user)
          .map((item) => item.itemKey)
          .sort(),
      ).toEqual(ids.filter((id) => id !== failed).sort());
    });

    it("when Google refuses the whole mailbox, then the run fails with google-api-error", async () => {
      const { user } = await mailbox(2);
      const backups = new Backups();
      const fault = await harness.admin("POST", "/faults", {
        method: "gmail.*",
        user,
        action: { kind: "error", status: 403, reason: "insufficientPermissions" },
      });
      expect(fault.status).toBe(200);

      const result = await backups.backup(user, gmailSource(user, meter()));

      expect(result).toMatchObject({ outcome: "failed", failureReason: "google-api-error" });
      expect(backups.catalog.run("run-1")?.state).toBe("failed");
      expect(backups.catalog.versions(user)).toHaveLength(0);
    });
  });
});

describe("Backup runner: failure reasons", () => {
  /** A source of one item whose content fails with `error`. */
  function failingSource(error: Error): Source {
    return {
      kind: "gmail",
      async *listChanges(): AsyncIterable<ChangeBatch> {
        yield { changes: [{ type: "upsert", item: { itemKey: "m1" } }], nextCursor: "2", done: true };
      },
      async fetch(): Promise<FetchedItem> {
        return {
          itemKey: "m1",
          versionKey: "1",
          contentKey: "m1",
          content: (async function* () {
            yield Buffer.from("partial");
            throw error;
          })(),
          metadata: {},
          search: {
            kind: "mail",
            subject: "",
            fromName: "",
            fromEmail: "",
            to: [],
            date: "2026-01-01T00:00:00.000Z",
            labels: [],
            size: 0,
            keywords: [],
          },
        };
      },
    };
  }

  it.each([
    {
      what: "a key that cannot be used",
      error: new EncryptionKeyError("disabled", "The key is disabled"),
      reason: "encryption-key-error",
    },
    {
      what: "an integrity failure",
      error: new EncryptionError("The tag does not match"),
      reason: "encryption-error",
    },
    {
      what: "a database that does not answer",
      error: Object.assign(new Error("14 UNAVAILABLE: no connection"), {
        code: 14,
        details: "no connection",
      }),
      reason: "database-unresponsive",
    },
    { what: "anything else", error: new Error("Unexpected"), reason: "unknown-error" },
  ])("when a run meets $what, then it fails with $reason", async ({ error, reason }) => {
    const backups = new Backups();

    const result = await backups.backup("resource-1", failingSource(error));

    expect(result).toMatchObject({ outcome: "failed", failureReason: reason });
    expect(backups.catalog.run("run-1")).toMatchObject({
      state: "failed",
      failureReason: reason,
      cursor: null,
    });
    expect(backups.catalog.versions("resource-1")).toHaveLength(0);
  });
});

describe("Backup runner: catalog outage", () => {
  it("when the catalog stops answering during a run, then the run ends with 'SQL database unresponsive' and the next run completes exactly", async () => {
    const { user } = await mailbox(4);
    const backups = new Backups();
    const run = backups.newRun(user);
    const result = await backups.run(run, gmailSource(user, meter()), {
      onCheckpoint: () => backups.catalog.failNext(1_000),
    });
    expect(result).toMatchObject({ outcome: "failed", failureReason: "database-unresponsive" });
    backups.catalog.failNext(0);
    // The failure could not be recorded (the catalog was down): the run is taken over once its lease
    // expires, and it completes from its last checkpoint.
    const later = Date.now() + 60 * 60_000;
    expect((await backups.run(run, gmailSource(user, meter()), { now: () => later })).outcome).toBe(
      "succeeded",
    );
    await backups.expectConsistent(user);
    expect(backups.catalog.items(user)).toHaveLength(4);
  });
});

describe("Backup runner: Drive", () => {
  function driveSourceOptions(user: string): ConstructorParameters<typeof DriveSource>[0] {
    const auth = harness.jwt(user, [SCOPES.drive]);
    return {
      drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
      accessToken: async () => (await auth.getAccessToken()).token ?? "",
      resource: { kind: "user", email: user },
      caller: meter(),
      pageSize: 2,
    };
  }

  const driveSource = (user: string): DriveSource => new DriveSource(driveSourceOptions(user));

  async function addFile(
    user: string,
    name: string,
    options: { mimeType: string; text?: string; content?: Buffer },
  ): Promise<string> {
    const answer = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, {
      name,
      mimeType: options.mimeType,
      ...(options.content ? { content: options.content.toString("base64") } : {}),
      ...(options.text !== undefined ? { text: options.text } : {}),
    });
    expect(answer.status).toBe(200);
    return answer.body.id;
  }

  function headContent(fileId: string): Buffer {
    const file = harness.emulator.drive.file(fileId);
    if (!file) throw new Error(`no file ${fileId}`);
    return harness.emulator.drive.head(file)?.content ?? Buffer.alloc(0);
  }

  it("when a My Drive with a Google Doc and a 2 MB file is backed up, then every file's objects decode to its exact bytes", async () => {
    const user = await newUser("drive-runner");
    const large = randomBytes(2 * 1024 * 1024 + 4321);
    const largeId = await addFile(user, "large.bin", {
      mimeType: "application/octet-stream",
      content: large,
    });
    const textId = await addFile(user, "notes.txt", { mimeType: "text/plain", text: "Some notes" });
    const docId = await addFile(user, "Minutes", { mimeType: DOC, text: "Meeting minutes\nSecond line" });
    const backups = new Backups();

    const result = await backups.backup(user, driveSource(user));

    expect(result.outcome).toBe("succeeded");
    expect(
      backups.catalog
        .items(user)
        .map((item) => item.itemKey)
        .sort(),
    ).toEqual([largeId, textId, docId].sort());
    const largeVersion = backups.current(user, largeId);
    expect((await backups.restore(largeVersion)).equals(large)).toBe(true);
    expect(headContent(largeId).equals(large)).toBe(true);
    expect("chunks" in largeVersion && largeVersion.chunks.length).toBeGreaterThan(10);
    expect((await backups.restore(backups.current(user, textId))).equals(headContent(textId))).toBe(true);
    const docVersion = backups.current(user, docId);
    const exported = await new drive_v3.Drive({
      auth: harness.jwt(user, [SCOPES.drive]),
      rootUrl: `${harness.url}/`,
    }).files.export({ fileId: docId, mimeType: DOCX }, { responseType: "arraybuffer" });
    expect((await backups.restore(docVersion)).equals(Buffer.from(exported.data as ArrayBuffer))).toBe(true);
    expect(docVersion.metadata.native?.mimeType).toBe(DOC);
    await backups.expectConsistent(user);

    const again = await backups.backup(user, driveSource(user));
    expect(again.outcome).toBe("succeeded");
    expect(backups.catalog.versions(user)).toHaveLength(3);
  });

  it("when a file changes between its listing and its download, then the run backs up the new bytes whole, never the listed md5 over other bytes", async () => {
    const user = await newUser("drive-runner");
    const fileId = await addFile(user, "moving.txt", { mimeType: "text/plain", text: "as listed" });
    const fetched: ItemRef[] = [];
    // Drive changes the file after the listing, just before the first download.
    class ChangingSource extends DriveSource {
      override async fetch(ref: ItemRef): Promise<FetchedItem> {
        fetched.push(ref);
        if (fetched.length === 1) {
          await harness.admin("POST", `/drive/files/${fileId}/content`, {
            text: "changed since the listing",
          });
        }
        return super.fetch(ref);
      }
    }
    const backups = new Backups();

    const result = await backups.backup(user, new ChangingSource(driveSourceOptions(user)));

    expect(result).toMatchObject({ outcome: "succeeded", itemErrors: 0 });
    expect(fetched).toHaveLength(2);
    expect(fetched[1]).toEqual({ itemKey: fileId });
    const version = backups.current(user, fileId);
    expect((await backups.restore(version)).toString()).toBe("changed since the listing");
    expect(version.contentKey).not.toBe(fetched[0]?.contentKey);
    expect(backups.catalog.versions(user)).toHaveLength(1);
    await backups.expectConsistent(user);
  });

  it("when a file has more chunks than fit inline and is then renamed, then its chunk list is a manifest object and the new version reuses its chunks", async () => {
    const user = await newUser("drive-runner");
    const content = randomBytes(16 * 1024 * 1024);
    const fileId = await addFile(user, "video.bin", { mimeType: "application/octet-stream", content });
    const backups = new Backups();
    expect((await backups.backup(user, driveSource(user))).outcome).toBe("succeeded");
    const first = backups.current(user, fileId);
    expect("manifestObject" in first && first.manifestObject).toBe(`o/${ORG}/m/${first.versionId}`);
    expect((await backups.chunksOf(first)).length).toBeGreaterThan(200);
    expect((await backups.restore(first)).equals(content)).toBe(true);
    const objects = backups.blobStore.size;

    await harness.drive(user).files.update({ fileId, requestBody: { name: "holiday.bin" } });
    const result = await backups.backup(user, driveSource(user));

    expect(result.outcome).toBe("succeeded");
    const second = backups.current(user, fileId);
    expect(second.versionId).not.toBe(first.versionId);
    expect(second.metadata.name).toBe("holiday.bin");
    expect(second.contentDigest).toBe(first.contentDigest);
    expect(await backups.chunksOf(second)).toEqual(await backups.chunksOf(first));
    expect(backups.blobStore.size).toBe(objects + 1);
    expect(backups.catalog.run("run-2")?.progress.bytes).toBe(0);
    expect((await backups.restore(second)).equals(content)).toBe(true);
  });
});
