/**
 * A run's totals (`RunRecord.expected`): what Google says a stream holds, read where it is cheap (the start
 * of a full listing: Gmail's profile, a My Drive's `about.get`), and what an incremental run's listed changes
 * say; persisted with the checkpoints, kept when a run resumes, never below what is done. An incremental run
 * pays for none of it. Against the Workspace emulator in-process, with the in-memory catalog and store.
 */
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { newDataKey } from "../../functions/src/engine/format/keys";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { DriveSource } from "../../functions/src/engine/drive/source";
import type { RunExpectation } from "../../functions/src/engine/runner/catalog";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup, type RunBackupResult } from "../../functions/src/engine/runner/run-backup";
import type { Source } from "../../functions/src/engine/sources/source";
import { Mailboxes, meter } from "../support/backup";

const ORG = "org-run-totals";
let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});
afterAll(() => harness.stop());

/** A caller that notes the methods called, in front of a metered one (the run's units). */
function recording(): { caller: GoogleCaller; methods: string[]; units: () => number } {
  const metered = meter();
  const methods: string[] = [];
  return {
    methods,
    units: () => metered.usage.units,
    caller: {
      call: (request, send) => {
        methods.push(request.method);
        return metered.call(request, send);
      },
    },
  };
}

/** One resource's backups: the catalog, the store, and the cursor each run goes on from. */
class Resource {
  readonly catalog = new MemoryCatalog();
  private readonly blobStore = new MemoryBlobStore();
  private readonly dataKey = newDataKey();
  private cursor: string | null = null;
  private runs = 0;
  /** What each checkpoint of the last run saved as its expectation. */
  seen: (RunExpectation | null | undefined)[] = [];

  constructor(readonly resourceId: string) {}

  newRun(): string {
    this.runs += 1;
    const runId = `run-${this.runs}`;
    this.catalog.createRun({ runId, resourceId: this.resourceId, cursor: this.cursor });
    return runId;
  }

  /** A delivery of the run; `stopAfterFirst`: it stops after its first checkpoint, as at a deadline. */
  async run(runId: string, source: Source, stopAfterFirst = false): Promise<RunBackupResult> {
    this.seen = [];
    const controller = new AbortController();
    const result = await runBackup({
      run: { runId, resourceId: this.resourceId },
      source,
      blobStore: this.blobStore,
      catalog: this.catalog,
      dataKey: this.dataKey,
      organizationId: ORG,
      signal: controller.signal,
      onCheckpoint: () => {
        this.seen.push(this.catalog.run(runId)?.expected);
        if (stopAfterFirst) controller.abort();
      },
    });
    this.cursor = this.catalog.run(runId)?.cursor ?? null;
    return result;
  }
}

const profileTotal = (user: string): number => {
  const userId = harness.emulator.directory.user(user)?.id ?? "";
  return harness.emulator.gmail.profile(userId).messagesTotal;
};

test("when a mailbox is backed up for the first time, then the run expects the mailbox's message count from the start", async () => {
  const user = await mail.newUser("totals");
  for (let index = 0; index < 5; index += 1) await mail.addMessage(user, `Totals ${index}`);
  const resource = new Resource(user);
  const { caller, methods } = recording();

  const result = await resource.run(resource.newRun(), mail.gmailSource(user, caller, 2));

  expect(result.outcome).toBe("succeeded");
  const total = profileTotal(user);
  expect(total).toBe(5);
  // Pages of 2: after the first page, 2 are done and the mailbox's 5 are expected.
  expect(resource.seen[0]).toMatchObject({ items: total, bytes: null, stream: "gmail", from: { items: 0 } });
  expect(resource.catalog.run("run-1")?.progress.items).toBe(total);
  // The profile the listing reads for its historyId says it: one getProfile, as before.
  expect(methods.filter((method) => method === "gmail.users.getProfile")).toHaveLength(1);
});

test("when a mailbox's first page is listed, then the run's totals are saved before any message of it is fetched", async () => {
  const user = await mail.newUser("early");
  for (let index = 0; index < 3; index += 1) await mail.addMessage(user, `Early ${index}`);
  const resource = new Resource(user);
  const runId = resource.newRun();
  const source = mail.gmailSource(user, recording().caller, 10);
  const atFirstFetch: (RunExpectation | null | undefined)[] = [];
  const watched: Source = {
    kind: source.kind,
    listChanges: (cursor) => source.listChanges(cursor),
    fetch: (item) => {
      if (atFirstFetch.length === 0) atFirstFetch.push(resource.catalog.run(runId)?.expected);
      return source.fetch(item);
    },
  };
  expect((await resource.run(runId, watched)).outcome).toBe("succeeded");
  expect(atFirstFetch).toEqual([
    expect.objectContaining({ items: 3, stream: "gmail", from: { items: 0, bytes: 0 } }),
  ]);
});

test("when a first backup stops after a page and goes on, then its expectation is kept and not asked again", async () => {
  const user = await mail.newUser("resume");
  for (let index = 0; index < 4; index += 1) await mail.addMessage(user, `Resume ${index}`);
  const resource = new Resource(user);
  const runId = resource.newRun();
  const stopped = await resource.run(runId, mail.gmailSource(user, recording().caller, 2), true);
  expect(stopped.outcome).toBe("continue");
  expect(resource.catalog.run(runId)?.expected?.items).toBe(4);

  const second = recording();
  expect((await resource.run(runId, mail.gmailSource(user, second.caller, 2))).outcome).toBe("succeeded");
  expect(resource.seen[0]?.items).toBe(4);
  expect(second.methods).not.toContain("gmail.users.getProfile");
});

test("when an unchanged mailbox is backed up again, then the incremental run reads no profile and costs its 2 units", async () => {
  const user = await mail.newUser("unchanged");
  for (let index = 0; index < 3; index += 1) await mail.addMessage(user, `Unchanged ${index}`);
  const resource = new Resource(user);
  await resource.run(resource.newRun(), mail.gmailSource(user, recording().caller, 2));

  const again = recording();
  const runId = resource.newRun();
  expect((await resource.run(runId, mail.gmailSource(user, again.caller, 2))).outcome).toBe("succeeded");
  expect(again.methods).toEqual(["gmail.users.history.list"]);
  expect(again.units()).toBe(2);
  // Nothing listed, nothing expected beyond what is done.
  expect(resource.catalog.run(runId)?.expected).toMatchObject({ items: 0, stream: "gmail" });
});

test("when new mail arrives between runs, then the incremental run expects what its listed changes hold", async () => {
  const user = await mail.newUser("incremental");
  await mail.addMessage(user, "Before");
  const resource = new Resource(user);
  await resource.run(resource.newRun(), mail.gmailSource(user, recording().caller, 1));
  for (let index = 0; index < 3; index += 1) await mail.addMessage(user, `After ${index}`);

  const runId = resource.newRun();
  // History pages of one record: the first batch lists one new message.
  expect((await resource.run(runId, mail.gmailSource(user, recording().caller, 1))).outcome).toBe(
    "succeeded",
  );
  expect(resource.seen[0]).toMatchObject({ items: 1, stream: "gmail", from: { items: 0 } });
  expect(resource.catalog.run(runId)?.expected).toMatchObject({ items: 3 });
  expect(resource.catalog.run(runId)?.progress.items).toBe(3);
});

test("when a My Drive is backed up for the first time, then the run expects the bytes its files use", async () => {
  const user = await mail.newUser("drivetotals");
  const sizes = [1_000, 20_000, 300];
  for (const [index, size] of sizes.entries()) {
    const answer = await harness.admin("POST", `/users/${user}/drive/files`, {
      name: `file-${index}.bin`,
      mimeType: "application/octet-stream",
      content: Buffer.alloc(size, index + 1).toString("base64"),
    });
    expect(answer.status).toBe(200);
  }
  const auth = harness.jwt(user, [SCOPES.drive]);
  const { caller, methods } = recording();
  const source = new DriveSource({
    drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
    resource: { kind: "user", email: user },
    caller,
    pageSize: 1,
  });
  const resource = new Resource(`drive-${user}`);

  expect((await resource.run(resource.newRun(), source)).outcome).toBe("succeeded");
  const usage = sizes.reduce((total, size) => total + size, 0);
  expect(resource.seen[0]).toMatchObject({ items: null, bytes: usage, stream: "drive" });
  expect(resource.catalog.run("run-1")?.progress.bytes).toBe(usage);
  expect(methods.filter((method) => method === "drive.about.get")).toHaveLength(1);
});
