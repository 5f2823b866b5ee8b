import { FormatError } from "../format/errors";
import { ResourceSource, parseResourceCursor } from "./resource-source";
import type { ChangeBatch, FetchedItem, ItemRef, Source, SourceKind } from "./source";

/** A stream whose listing is scripted: per cursor (null → "start"), the batches it yields. */
class ScriptedStream implements Source {
  readonly listed: (string | null)[] = [];
  readonly fetched: string[] = [];

  constructor(
    readonly kind: SourceKind,
    private readonly script: Record<string, ChangeBatch[]>,
  ) {}

  async *listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    this.listed.push(cursor);
    for (const batch of this.script[cursor ?? "start"] ?? []) yield batch;
  }

  fetch(item: ItemRef): Promise<FetchedItem> {
    this.fetched.push(item.itemKey);
    return Promise.reject(new Error(`${this.kind} fetched ${item.itemKey}`));
  }
}

const upsert = (itemKey: string) => ({ type: "upsert" as const, item: { itemKey } });

async function collect(
  source: Source,
  cursor: string | null,
  onBatch?: (batch: ChangeBatch) => Promise<void>,
) {
  const batches: ChangeBatch[] = [];
  for await (const batch of source.listChanges(cursor)) {
    batches.push(batch);
    await onBatch?.(batch);
  }
  return batches;
}

describe("resource source", () => {
  const gmailScript = {
    start: [
      { changes: [upsert("a1")], nextCursor: "g-page2", fullListing: true },
      { changes: [upsert("a2")], nextCursor: "g-inc1", done: true },
    ],
    "g-page2": [{ changes: [upsert("a2")], nextCursor: "g-inc1", done: true }],
    "g-inc1": [{ changes: [], nextCursor: "g-inc2", done: true }],
  };
  const driveScript = {
    start: [{ changes: [upsert("fileA")], nextCursor: "d-inc1", fullListing: true, done: true }],
    "d-inc1": [{ changes: [upsert("fileB")], nextCursor: "d-inc2", done: true }],
  };

  test("when a first backup lists a mailbox, then Gmail's batches come first, then Drive's, and only the last says done", async () => {
    const gmail = new ScriptedStream("gmail", gmailScript);
    const drive = new ScriptedStream("drive", driveScript);
    const batches = await collect(new ResourceSource([gmail, drive]), null);
    expect(
      batches.map((batch) =>
        batch.changes.map((change) => (change.type === "upsert" ? change.item.itemKey : "")),
      ),
    ).toEqual([["a1"], ["a2"], ["fileA"]]);
    expect(batches.map((batch) => batch.done === true)).toEqual([false, false, true]);
    expect(batches[0]?.fullListing).toBe(true);
    expect(parseResourceCursor(batches[0]!.nextCursor)).toEqual({
      v: 1,
      at: "gmail",
      cursors: { gmail: "g-page2" },
    });
    expect(parseResourceCursor(batches[1]!.nextCursor)).toEqual({
      v: 1,
      at: "drive",
      cursors: { gmail: "g-inc1" },
    });
    expect(parseResourceCursor(batches[2]!.nextCursor)).toEqual({
      v: 1,
      at: null,
      cursors: { gmail: "g-inc1", drive: "d-inc1" },
    });
  });

  test("when a run resumes from a checkpoint in the middle of a stream, then it goes on from that stream's cursor and does not list the streams before it", async () => {
    const gmail = new ScriptedStream("gmail", gmailScript);
    const drive = new ScriptedStream("drive", driveScript);
    const middle = JSON.stringify({ v: 1, at: "drive", cursors: { gmail: "g-inc1" } });
    const batches = await collect(new ResourceSource([gmail, drive]), middle);
    expect(gmail.listed).toEqual([]);
    expect(drive.listed).toEqual([null]);
    expect(batches).toHaveLength(1);

    const resumedGmail = new ScriptedStream("gmail", gmailScript);
    await collect(
      new ResourceSource([resumedGmail, new ScriptedStream("drive", driveScript)]),
      JSON.stringify({ v: 1, at: "gmail", cursors: { gmail: "g-page2" } }),
    );
    expect(resumedGmail.listed).toEqual(["g-page2"]);
  });

  test("when the next run starts, then every stream goes on from its own incremental cursor", async () => {
    const gmail = new ScriptedStream("gmail", gmailScript);
    const drive = new ScriptedStream("drive", driveScript);
    const ended = JSON.stringify({ v: 1, at: null, cursors: { gmail: "g-inc1", drive: "d-inc1" } });
    const batches = await collect(new ResourceSource([gmail, drive]), ended);
    expect(gmail.listed).toEqual(["g-inc1"]);
    expect(drive.listed).toEqual(["d-inc1"]);
    expect(parseResourceCursor(batches.at(-1)!.nextCursor).cursors).toEqual({
      gmail: "g-inc2",
      drive: "d-inc2",
    });
  });

  test("when a policy covers Drive only, then the Gmail cursor is kept untouched for later and Drive is listed in full", async () => {
    const drive = new ScriptedStream("drive", driveScript);
    const ended = JSON.stringify({ v: 1, at: null, cursors: { gmail: "g-inc1" } });
    const batches = await collect(new ResourceSource([drive]), ended);
    expect(drive.listed).toEqual([null]);
    expect(parseResourceCursor(batches.at(-1)!.nextCursor).cursors).toEqual({
      gmail: "g-inc1",
      drive: "d-inc1",
    });
  });

  test("when the engine fetches an item, then the stream that listed the batch in hand fetches it", async () => {
    const gmail = new ScriptedStream("gmail", gmailScript);
    const drive = new ScriptedStream("drive", driveScript);
    const source = new ResourceSource([gmail, drive]);
    await collect(source, null, async (batch) => {
      for (const change of batch.changes) {
        if (change.type === "upsert") await source.fetch(change.item).catch(() => undefined);
      }
    });
    expect(gmail.fetched).toEqual(["a1", "a2"]);
    expect(drive.fetched).toEqual(["fileA"]);
  });

  test("when the previous run left item errors, then each stream first yields them again, without moving the cursor", async () => {
    const gmail = new ScriptedStream("gmail", gmailScript);
    const drive = new ScriptedStream("drive", driveScript);
    const ended = JSON.stringify({ v: 1, at: null, cursors: { gmail: "g-inc1", drive: "d-inc1" } });
    const source = new ResourceSource(
      [gmail, drive],
      [
        { kind: "drive", itemKey: "fileZ" },
        { kind: "gmail", itemKey: "m9" },
        { kind: "gmail", itemKey: "m9" },
      ],
    );
    const batches = await collect(source, ended);
    const keys = batches.map((batch) =>
      batch.changes.map((change) => (change.type === "upsert" ? change.item.itemKey : "")),
    );
    expect(keys).toEqual([["m9"], [], ["fileZ"], ["fileB"]]);
    expect(parseResourceCursor(batches[0]!.nextCursor)).toEqual(parseResourceCursor(ended));
    expect(batches.map((batch) => batch.stream)).toEqual(["gmail", "gmail", "drive", "drive"]);
  });

  test("when a stream ends without a last batch, then the cursor still moves past it", async () => {
    const silent = new ScriptedStream("gmail", {});
    const drive = new ScriptedStream("drive", driveScript);
    const batches = await collect(new ResourceSource([silent, drive]), null);
    expect(parseResourceCursor(batches[0]!.nextCursor).at).toBe("drive");
    expect(batches.at(-1)?.done).toBe(true);
  });

  test("when a cursor is not a resource cursor, then it is a format error; two streams of one kind are refused", () => {
    expect(() => parseResourceCursor("12345")).toThrow(FormatError);
    expect(() => parseResourceCursor(JSON.stringify({ v: 2, at: null, cursors: {} }))).toThrow(FormatError);
    expect(() => parseResourceCursor(JSON.stringify({ v: 1, at: "chat", cursors: {} }))).toThrow(FormatError);
    expect(
      () => new ResourceSource([new ScriptedStream("gmail", {}), new ScriptedStream("gmail", {})]),
    ).toThrow(RangeError);
    expect(() => new ResourceSource([])).toThrow(RangeError);
  });
});
