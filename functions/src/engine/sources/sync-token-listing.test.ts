import {
  readSyncTokenPosition,
  syncTokenSteps,
  type SyncTokenCollection,
  type SyncTokenStep,
} from "./sync-token-listing";

const refused = (status: number, reason: string) =>
  Object.assign(new Error(reason), {
    response: { status, data: { error: { errors: [{ reason }] } } },
  });

/**
 * A collection of `pages` full pages ("p1", …) ending with sync token "s1", and changes from "s1" to "s2";
 * `stalePages` are refused the first time they are asked for (a saved page token that went stale).
 */
function fakeCollection(options: { pages: number; expired?: string[]; stalePages?: string[] }) {
  const calls: string[] = [];
  const stale = new Set(options.stalePages);
  const refuseOnce = (pageToken: string | undefined): void => {
    if (pageToken && stale.delete(pageToken)) throw refused(400, "invalid");
  };
  const collection: SyncTokenCollection = {
    fullPage: async (pageToken, resync) => {
      calls.push(`full ${pageToken ?? "-"}${resync ? " resync" : ""}`);
      refuseOnce(pageToken);
      const index = pageToken ? Number(pageToken.slice(1)) : 0;
      const last = index + 1 >= options.pages;
      return {
        changes: [{ type: "upsert", item: { itemKey: `item-${index}` } }],
        ...(last ? { nextSyncToken: "s1" } : { nextPageToken: `p${index + 1}` }),
      };
    },
    changesPage: async (syncToken, pageToken) => {
      calls.push(`changes ${syncToken} ${pageToken ?? "-"}`);
      if (options.expired?.includes(syncToken)) throw refused(410, "fullSyncRequired");
      refuseOnce(pageToken);
      return pageToken
        ? { changes: [{ type: "delete", itemKey: "gone" }], nextSyncToken: "s2" }
        : { changes: [{ type: "delete", itemKey: "old" }], nextPageToken: "c1" };
    },
    isExpired: (error) => (error as { response?: { status?: number } }).response?.status === 410,
  };
  return { collection, calls };
}

async function steps(iterable: AsyncIterable<SyncTokenStep>): Promise<SyncTokenStep[]> {
  const out: SyncTokenStep[] = [];
  for await (const step of iterable) out.push(step);
  return out;
}

test("when there is no position, then a full listing pages on and its last page's sync token is the incremental position", async () => {
  const { collection, calls } = fakeCollection({ pages: 3 });
  const all = await steps(syncTokenSteps(collection, undefined));
  expect(calls).toEqual(["full -", "full p1", "full p2"]);
  expect(all.map((step) => step.next)).toEqual([
    { mode: "full", pageToken: "p1" },
    { mode: "full", pageToken: "p2" },
    { mode: "incremental", syncToken: "s1" },
  ]);
  expect(all.map((step) => [step.fullListing, step.resynced, step.done])).toEqual([
    [true, false, false],
    [false, false, false],
    [false, false, true],
  ]);
});

test("when a full listing resumes at its page, then it is not marked as a new listing", async () => {
  const { collection, calls } = fakeCollection({ pages: 3 });
  const all = await steps(syncTokenSteps(collection, { mode: "full", pageToken: "p2" }));
  expect(calls).toEqual(["full p2"]);
  expect(all).toEqual([
    {
      changes: [{ type: "upsert", item: { itemKey: "item-2" } }],
      next: { mode: "incremental", syncToken: "s1" },
      fullListing: false,
      resynced: false,
      done: true,
    },
  ]);
});

test("when the changes page on, then each page resumes at its page token and the last gives the next sync token", async () => {
  const { collection, calls } = fakeCollection({ pages: 1 });
  const all = await steps(syncTokenSteps(collection, { mode: "incremental", syncToken: "s1" }));
  expect(calls).toEqual(["changes s1 -", "changes s1 c1"]);
  expect(all.map((step) => step.next)).toEqual([
    { mode: "incremental", syncToken: "s1", pageToken: "c1" },
    { mode: "incremental", syncToken: "s2" },
  ]);
  expect(all.every((step) => !step.fullListing && !step.resynced)).toBe(true);
});

test("when the sync token has expired, then a full listing asked as a resync follows, its first step marked resynced", async () => {
  const { collection, calls } = fakeCollection({ pages: 2, expired: ["s1"] });
  const all = await steps(syncTokenSteps(collection, { mode: "incremental", syncToken: "s1" }));
  expect(calls).toEqual(["changes s1 -", "full - resync", "full p1 resync"]);
  expect(all[0]).toMatchObject({
    fullListing: true,
    resynced: true,
    next: { mode: "full", pageToken: "p1", resync: true },
  });
  expect(all[1]).toMatchObject({
    resynced: false,
    done: true,
    next: { mode: "incremental", syncToken: "s1" },
  });
});

test("when a saved page token is refused, then that listing starts again from its beginning", async () => {
  const full = fakeCollection({ pages: 3, stalePages: ["p2"] });
  const again = await steps(syncTokenSteps(full.collection, { mode: "full", pageToken: "p2" }));
  expect(full.calls).toEqual(["full p2", "full - resync", "full p1 resync", "full p2 resync"]);
  expect(again[0]).toMatchObject({ fullListing: true, resynced: true });

  const changes = fakeCollection({ pages: 1, stalePages: ["c1"] });
  const fromToken = await steps(
    syncTokenSteps(changes.collection, { mode: "incremental", syncToken: "s1", pageToken: "c1" }),
  );
  // From its token again, not a full listing.
  expect(changes.calls).toEqual(["changes s1 c1", "changes s1 -", "changes s1 c1"]);
  expect(fromToken.map((step) => step.resynced)).toEqual([false, false]);
});

test("when a page token of the run's own listing is refused, then the listing fails", async () => {
  const { collection } = fakeCollection({ pages: 3, stalePages: ["p1"] });
  await expect(steps(syncTokenSteps(collection, undefined))).rejects.toThrow("invalid");
});

test("when a saved position is read back, then only well-formed positions are kept", () => {
  expect(readSyncTokenPosition({ mode: "full", pageToken: "p1", resync: true })).toEqual({
    mode: "full",
    pageToken: "p1",
    resync: true,
  });
  expect(readSyncTokenPosition({ mode: "incremental", syncToken: "s1" })).toEqual({
    mode: "incremental",
    syncToken: "s1",
  });
  expect(readSyncTokenPosition({ mode: "incremental" })).toBeUndefined();
  expect(readSyncTokenPosition("s1")).toBeUndefined();
});
