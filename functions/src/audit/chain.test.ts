import { createHash } from "node:crypto";
import {
  canonicalJson,
  ChainWalk,
  entryHash,
  GENESIS_HASH,
  sealAfter,
  type ChainHead,
  type ChainLink,
  type StoredFields,
} from "./chain";

function fields(day: number, object = `Policy ${day}`): StoredFields {
  return {
    date: `2026-03-${String(day).padStart(2, "0")}T12:00:00.000Z`,
    actor: "admin@example.test",
    operation: "policy.updated",
    object,
    failureReason: null,
  };
}

/** A sealed log of `count` entries, as a sealer writes it, and its head. */
function sealedLog(count: number): { links: ChainLink[]; head: ChainHead } {
  const entries = Array.from({ length: count }, (_, index) => ({
    entryId: `e${index + 1}`,
    fields: fields(index + 1),
  }));
  const { seals, head } = sealAfter(null, entries);
  const links = entries.map((entry, index) => ({ ...entry, ...seals[index] }) as ChainLink);
  return { links, head: head as ChainHead };
}

function walk(links: ChainLink[], head: ChainHead | null) {
  const chain = new ChainWalk();
  for (const link of links) {
    const broken = chain.next(link);
    if (broken) return { broken, verified: chain.verified };
  }
  return { broken: chain.end(head), verified: chain.verified };
}

test("when values are written canonically, then key order and absent fields do not matter but every value does", () => {
  expect(canonicalJson({ b: 1, a: { d: [1, "x", null], c: true } })).toBe(
    '{"a":{"c":true,"d":[1,"x",null]},"b":1}',
  );
  expect(canonicalJson({ a: 1, gone: undefined })).toBe(canonicalJson({ a: 1 }));
  expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
  expect(canonicalJson({ a: "1" })).not.toBe(canonicalJson({ a: 1 }));
});

test("when an entry is hashed, then it is sha256 of the previous hash and the canonical JSON of its fields and seq", () => {
  const expected = createHash("sha256")
    .update(
      GENESIS_HASH +
        canonicalJson({
          entryId: "e1",
          ...fields(1),
          seq: 1,
        }),
    )
    .digest("hex");
  expect(entryHash(GENESIS_HASH, "e1", fields(1), 1)).toBe(expected);
  expect(entryHash(GENESIS_HASH, "e1", fields(1), 2)).not.toBe(expected);
  expect(entryHash(GENESIS_HASH, "e2", fields(1), 1)).not.toBe(expected);
  expect(entryHash("1".repeat(64), "e1", fields(1), 1)).not.toBe(expected);
  expect(entryHash(GENESIS_HASH, "e1", { ...fields(1), failureReason: "Google API error" }, 1)).not.toBe(
    expected,
  );
});

test("when entries are sealed in two batches, then the chain is the same as sealed at once", () => {
  const all = Array.from({ length: 5 }, (_, index) => ({ entryId: `e${index}`, fields: fields(index + 1) }));
  const once = sealAfter(null, all);
  const first = sealAfter(null, all.slice(0, 2));
  const second = sealAfter(first.head, all.slice(2));
  expect([...first.seals, ...second.seals]).toEqual(once.seals);
  expect(second.head).toEqual(once.head);
  expect(once.seals.map((seal) => seal.seq)).toEqual([1, 2, 3, 4, 5]);
  expect(once.seals[0]?.prevHash).toBe(GENESIS_HASH);
  expect(once.seals[3]?.prevHash).toBe(once.seals[2]?.hash);
  expect(sealAfter(once.head, []).head).toEqual(once.head);
});

test("when nothing is changed, then the walk verifies every entry and ends at the head", () => {
  const { links, head } = sealedLog(6);
  expect(walk(links, head)).toEqual({ broken: undefined, verified: 6 });
  expect(walk([], null)).toEqual({ broken: undefined, verified: 0 });
});

test("when an entry's object is edited, then the walk stops at that entry: content changed", () => {
  const { links, head } = sealedLog(5);
  const third = links[2] as ChainLink;
  links[2] = { ...third, fields: { ...third.fields, object: "Someone else's policy" } };
  expect(walk(links, head)).toEqual({
    verified: 2,
    broken: {
      reason: "content-changed",
      message: "The entry was changed after it was sealed.",
      entryId: "e3",
      seq: 3,
      date: "2026-03-03T12:00:00.000Z",
      operation: "policy.updated",
    },
  });
});

test("when an edited entry is re-hashed, then the next entry's link names the break", () => {
  const { links, head } = sealedLog(4);
  const second = links[1] as ChainLink;
  const edited = { ...second.fields, actor: "intruder@example.test" };
  links[1] = { ...second, fields: edited, hash: entryHash(second.prevHash as string, "e2", edited, 2) };
  const { broken } = walk(links, head);
  expect(broken).toMatchObject({ reason: "link-broken", entryId: "e3", seq: 3 });
  expect(broken?.message).toBe("The entry does not hold the hash of entry 2.");
});

test("when entries are deleted, then the walk names the gap and the entry after it", () => {
  const { links, head } = sealedLog(6);
  expect(walk([...links.slice(0, 2), ...links.slice(3)], head)).toEqual({
    verified: 2,
    broken: expect.objectContaining({
      reason: "entry-missing",
      message: "Entry 3 is missing before entry 4.",
      entryId: "e4",
      seq: 3,
    }) as unknown,
  });
  expect(walk([...links.slice(0, 1), ...links.slice(4)], head).broken).toMatchObject({
    reason: "entry-missing",
    message: "Entries 2 to 4 are missing before entry 5.",
  });
  expect(walk(links.slice(0, 4), head).broken).toEqual({
    reason: "entry-missing",
    message: "Entries 5 to 6 are missing at the end of the log.",
    entryId: null,
    seq: 5,
    date: null,
    operation: null,
  });
  expect(walk(links.slice(1), head).broken).toMatchObject({ reason: "entry-missing", seq: 1, entryId: "e2" });
});

test("when a forged entry takes a sealed entry's place, then the walk names the break", () => {
  const { links, head } = sealedLog(4);
  const third = links[2] as ChainLink;
  // A copy under another id with a made-up hash, sorting before the real entry 3.
  const forged: ChainLink = { ...third, entryId: "e2a", hash: "f".repeat(64) };
  expect(walk([links[0], links[1], forged, ...links.slice(2)] as ChainLink[], head).broken).toMatchObject({
    reason: "content-changed",
    entryId: "e2a",
    seq: 3,
  });
  // The same with a correctly computed hash: two entries hold seq 3.
  const computed: ChainLink = {
    ...forged,
    hash: entryHash(third.prevHash as string, "e2a", third.fields, 3),
  };
  const { broken } = walk([links[0], links[1], computed, ...links.slice(2)] as ChainLink[], head);
  expect(broken).toMatchObject({ reason: "link-broken", entryId: "e3", seq: 3 });
  expect(broken?.message).toBe("Entry 3 appears twice: entry ids e2a and e3 hold it.");
});

test("when seals are malformed, then the walk reports a broken link rather than failing", () => {
  const { links, head } = sealedLog(2);
  const first = links[0] as ChainLink;
  expect(walk([{ ...first, seq: "1" }], head).broken).toMatchObject({ reason: "link-broken", seq: null });
  expect(walk([{ ...first, seq: 1.5 }], head).broken).toMatchObject({ reason: "link-broken" });
  expect(walk([{ ...first, prevHash: undefined }], head).broken).toMatchObject({
    reason: "link-broken",
    message: "The first entry does not start the chain.",
  });
  expect(walk([{ ...first, hash: 7 }], head).broken).toMatchObject({ reason: "content-changed" });
  expect(walk([{ ...first, fields: { ...first.fields, operation: "nonsense" } }], head).broken).toMatchObject(
    {
      reason: "content-changed",
      operation: null,
    },
  );
});

test("when the head does not hold the last entry's hash, then the walk names the last entry", () => {
  const { links, head } = sealedLog(3);
  expect(walk(links, { ...head, hash: "0".repeat(64) }).broken).toMatchObject({
    reason: "link-broken",
    message: "The log's head does not hold the hash of entry 3.",
    entryId: "e3",
    seq: 3,
  });
});
