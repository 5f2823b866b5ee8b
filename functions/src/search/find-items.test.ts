/**
 * Search over catalog format v2 (docs/backup-format.md §9.4) finds what it finds over version 1: the same
 * mail, written once in each format, gives the same pages, page tokens' continuations and totals for a
 * word, several words, a label, a date and no term; and a resource whose items are in both formats (a
 * migration under way) shows each item once.
 */
import { FORMAT_SCOPES, testVersion, writeInEachFormat, type FormatScope } from "../backups/catalog/testing";
import type { CatalogVersion } from "../engine/runner/catalog";
import { findItems, type ItemsQuery } from "./find-items";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const RESOURCE = "user-1";
const { v1, v2, mixed } = FORMAT_SCOPES;

const WORDS = ["budget", "figures", "travel", "minutes"];

/** Mail `n`: a subject of two of the words, one of two labels, one day each, first backed up a day later. */
function mail(n: number): CatalogVersion {
  const itemKey = `m${String(n).padStart(3, "0")}`;
  const date = new Date(Date.UTC(2026, 0, 1 + n)).toISOString();
  const words = [WORDS[n % 4] as string, WORDS[(n + 1) % 4] as string];
  const label = n % 3 === 0 ? "projects" : "inbox";
  const search = {
    kind: "mail" as const,
    subject: words.join(" "),
    fromName: "ada",
    fromEmail: "ada@example.test",
    to: [],
    date,
    labels: [label],
    size: 100 + n,
    keywords: words,
  };
  return testVersion(itemKey, "gmail-message", search, {
    capturedAt: new Date(Date.UTC(2026, 0, 2 + n)).toISOString(),
    size: 100 + n,
    metadata: { labels: [{ id: label, name: label }], threadId: `t${n}`, historyId: "1" },
  });
}

const MAILS = Array.from({ length: 45 }, (_, n) => mail(n));

beforeAll(async () => {
  await writeInEachFormat(RESOURCE, MAILS);
});

/** Every page of a query, followed by its tokens: the keys shown and each page's total. */
async function allPages(scope: FormatScope, query: Omit<ItemsQuery, "pageSize" | "skip" | "token">) {
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
