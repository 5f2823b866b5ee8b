/**
 * Search over catalog format v2 (docs/backup-format.md §9.4) finds what it finds over version 1: the same
 * mail, written once in each format, gives the same pages, page tokens' continuations and totals for a
 * word, several words, a label, a date and no term; and a resource whose items are in both formats (a
 * migration under way) shows each item once.
 */
import { FirestoreCatalog } from "../backups/catalog/repo";
import { keyringOf } from "../backups/catalog/sealed-documents";
import { deriveKeys, newDataKey } from "../engine/format/keys";
import type { CatalogVersion } from "../engine/runner/catalog";
import { findItems, type ItemsQuery } from "./find-items";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const RESOURCE = "user-1";
const keys = deriveKeys(newDataKey());
const v1 = { organizationId: "org-v1", regionId: "ch" } as const;
const v2 = { organizationId: "org-v2", regionId: "ch", keyring: keyringOf("org-v2", [keys]) } as const;
const mixed = {
  organizationId: "org-mixed",
  regionId: "ch",
  keyring: keyringOf("org-mixed", [keys]),
} as const;

const WORDS = ["budget", "figures", "travel", "minutes"];

/** Mail `n`: a subject of two of the words, one of two labels, one day each, first backed up a day later. */
function mail(n: number): CatalogVersion {
  const itemKey = `m${String(n).padStart(3, "0")}`;
  const date = new Date(Date.UTC(2026, 0, 1 + n)).toISOString();
  const words = [WORDS[n % 4] as string, WORDS[(n + 1) % 4] as string];
  const label = n % 3 === 0 ? "projects" : "inbox";
  return {
    versionId: `${itemKey}@1`,
    itemKey,
    kind: "gmail-message",
    versionKey: "1",
    contentKey: itemKey,
    capturedAt: new Date(Date.UTC(2026, 0, 2 + n)).toISOString(),
    runId: "run-1",
    size: 100 + n,
    storedBytes: 80,
    contentDigest: "d".repeat(64),
    dataKeyId: keys.dataKeyId,
    metadata: { labels: [{ id: label, name: label }], threadId: `t${n}`, historyId: "1" },
    search: {
      kind: "mail",
      subject: words.join(" "),
      fromName: "ada",
      fromEmail: "ada@example.test",
      to: [],
      date,
      labels: [label],
      size: 100 + n,
      keywords: words,
    },
    formatVersion: 1,
    chunks: [{ id: "c".repeat(64), size: 100 + n }],
  };
}

const MAILS = Array.from({ length: 45 }, (_, n) => mail(n));

/** Writes each version as a run of its capture time would (first and last seen then). */
async function write(catalog: FirestoreCatalog, versions: CatalogVersion[]): Promise<void> {
  for (const version of versions) await catalog.writeVersions(RESOURCE, [version]);
}

beforeAll(async () => {
  await write(new FirestoreCatalog(v1), MAILS);
  await write(new FirestoreCatalog(v2, keys), MAILS);
  // Half in each format, as during the migration.
  await write(
    new FirestoreCatalog(mixed),
    MAILS.filter((_, n) => n % 2 === 0),
  );
  await write(
    new FirestoreCatalog(mixed, keys),
    MAILS.filter((_, n) => n % 2 === 1),
  );
});

type Scope = typeof v1 | typeof v2 | typeof mixed;

/** Every page of a query, followed by its tokens: the keys shown and each page's total. */
async function allPages(scope: Scope, query: Omit<ItemsQuery, "pageSize" | "skip" | "token">) {
  const shown: string[] = [];
  const totals: number[] = [];
  let token: ItemsQuery["token"];
  for (let page = 1; page < 20; page += 1) {
    const found = await findItems(scope, RESOURCE, { ...query, pageSize: 7, skip: 0, token });
    shown.push(...found.items.map((item) => item.itemKey));
    totals.push(found.total);
    if (!found.next) break;
    token = { page: page + 1, position: found.next, total: found.total, totalAtLeast: found.totalAtLeast };
  }
  return { shown, totals };
}

const QUERIES: [string, Omit<ItemsQuery, "pageSize" | "skip" | "token">][] = [
  ["no term", { kind: "gmail-message", words: [] }],
  ["one word", { kind: "gmail-message", words: ["budget"] }],
  ["two words", { kind: "gmail-message", words: ["figures", "travel"] }],
  [
    "a label",
    {
      kind: "gmail-message",
      words: [],
      place: { field: "search.labels", op: "array-contains", value: "projects" },
    },
  ],
  ["a word at a date", { kind: "gmail-message", words: ["minutes"], asOf: "2026-01-30T00:00:00.000Z" }],
  ["a date", { kind: "gmail-message", words: [], asOf: "2026-01-20T00:00:00.000Z" }],
];

test.each(QUERIES)(
  "when the same mail is searched by %s in either format, then the pages, their order and the totals are equal",
  async (_name, query) => {
    const one = await allPages(v1, query);
    expect(one.shown.length).toBeGreaterThan(0);
    expect(await allPages(v2, query)).toEqual(one);
  },
);

test.each(QUERIES)(
  "when half the mail is in each format and searched by %s, then every item is shown once and the totals are v1's",
  async (_name, query) => {
    const one = await allPages(v1, query);
    const both = await allPages(mixed, query);
    expect([...both.shown].sort()).toEqual([...one.shown].sort());
    expect(new Set(both.shown).size).toBe(both.shown.length);
    expect(both.totals[0]).toBe(one.totals[0]);
  },
);

test("when a word is searched in format v2 without the organisation's keys, then nothing of v2 is found and nothing fails", async () => {
  const withoutKeys = { organizationId: "org-v2", regionId: "ch" } as const;
  const found = await findItems(withoutKeys, RESOURCE, {
    kind: "gmail-message",
    words: ["budget"],
    pageSize: 7,
    skip: 0,
  });
  expect(found.items).toEqual([]);
});
