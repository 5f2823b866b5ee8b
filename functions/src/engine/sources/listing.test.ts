import { listChanges, parseListingCursor, type ServiceListing } from "./listing";
import type { ChangeBatch } from "./source";

/** A service of `pages` full-listing pages ("p0", "p1", …) whose incremental token is "inc-<n>". */
function fakeService(options: { pages: number; expired?: boolean; staleTokens?: string[] }) {
  const calls: string[] = [];
  let starts = 0;
  const listing: ServiceListing = {
    service: "fake",
    tokenField: "startToken",
    isToken: (token) => token.startsWith("inc-"),
    parseIncremental: (cursor) =>
      cursor.startsWith("inc-") ? { mode: "incremental", token: cursor } : { mode: "invalid" },
    startToken: async () => {
      starts += 1;
      calls.push("start");
      return `inc-${starts}`;
    },
    listPage: async (pageToken) => {
      calls.push(`page ${pageToken ?? "-"}`);
      if (pageToken && options.staleTokens?.includes(pageToken)) {
        throw Object.assign(new Error("Invalid page token"), { response: { status: 400 } });
      }
      const index = pageToken ? Number(pageToken.slice(1)) : 0;
      const next = index + 1 < options.pages ? `p${index + 1}` : undefined;
      return {
        changes: [{ type: "upsert", item: { itemKey: `item-${index}` } }],
        ...(next ? { nextPageToken: next } : {}),
      };
    },
    async *incremental(token) {
      calls.push(`incremental ${token}`);
      if (options.expired) return true;
      yield { changes: [{ type: "delete", itemKey: "gone" }], nextCursor: "inc-9", done: true };
      return false;
    },
    beforeFullListing: async () => {
      calls.push("before full");
    },
  };
  return { listing, calls };
}

async function all(batches: AsyncIterable<ChangeBatch>): Promise<ChangeBatch[]> {
  const out: ChangeBatch[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

test("when there is no cursor, then a full listing takes its incremental token first and resumes page by page", async () => {
  const { listing, calls } = fakeService({ pages: 3 });
  const batches = await all(listChanges(listing, null));
  expect(calls).toEqual(["before full", "start", "page -", "page p1", "page p2"]);
  expect(batches.map((batch) => batch.nextCursor)).toEqual([
    JSON.stringify({ fake: "full", startToken: "inc-1", pageToken: "p1" }),
    JSON.stringify({ fake: "full", startToken: "inc-1", pageToken: "p2" }),
    "inc-1",
  ]);
  expect(batches[0]).toMatchObject({ fullListing: true });
  expect(batches[0]?.resynced).toBeUndefined();
  expect(batches.map((batch) => batch.done ?? false)).toEqual([false, false, true]);
});

test("when a full listing's cursor is given, then the listing resumes at its page with its token", async () => {
  const { listing, calls } = fakeService({ pages: 3 });
  const cursor = JSON.stringify({ fake: "full", startToken: "inc-7", pageToken: "p2" });
  const batches = await all(listChanges(listing, cursor));
  expect(calls).toEqual(["before full", "page p2"]);
  expect(batches).toEqual([
    { changes: [{ type: "upsert", item: { itemKey: "item-2" } }], nextCursor: "inc-7", done: true },
  ]);
});

test("when the incremental token has expired, then a full listing marked resynced follows", async () => {
  const { listing, calls } = fakeService({ pages: 1, expired: true });
  const batches = await all(listChanges(listing, "inc-3"));
  expect(calls).toEqual(["incremental inc-3", "before full", "start", "page -"]);
  expect(batches).toHaveLength(1);
  expect(batches[0]).toMatchObject({ fullListing: true, resynced: true, done: true, nextCursor: "inc-1" });
});

test("when the incremental token is valid, then its batches pass through unchanged", async () => {
  const { listing, calls } = fakeService({ pages: 1 });
  const batches = await all(listChanges(listing, "inc-3"));
  expect(calls).toEqual(["incremental inc-3"]);
  expect(batches).toEqual([
    { changes: [{ type: "delete", itemKey: "gone" }], nextCursor: "inc-9", done: true },
  ]);
});

test("when a resumed page token is refused with 400, then the listing starts over marked resynced", async () => {
  const { listing, calls } = fakeService({ pages: 2, staleTokens: ["p1"] });
  const cursor = JSON.stringify({ fake: "full", startToken: "inc-5", pageToken: "p1" });
  const seen: ChangeBatch[] = [];
  // p1 stays refused in this fake: the fresh listing's own p1 fails, and that is an error, not a loop.
  await expect(
    (async () => {
      for await (const batch of listChanges(listing, cursor)) seen.push(batch);
    })(),
  ).rejects.toThrow("Invalid page token");
  expect(calls).toEqual(["before full", "page p1", "start", "page -", "page p1"]);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ fullListing: true, resynced: true });
});

test("when the cursor cannot be read, then a full listing marked resynced starts", async () => {
  for (const cursor of ["garbage", "{not json", JSON.stringify({ fake: "full", startToken: "bad" })]) {
    const { listing } = fakeService({ pages: 1 });
    expect(parseListingCursor(listing, cursor)).toEqual({ mode: "invalid" });
    const batches = await all(listChanges(listing, cursor));
    expect(batches[0]).toMatchObject({ fullListing: true, resynced: true, nextCursor: "inc-1" });
  }
});
