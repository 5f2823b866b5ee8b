/**
 * Section "search": the production `searchBackups` (functions/src/search/service.ts) over the catalog of
 * one mailbox, read through firebase-admin from a Firestore emulator of this section's own, on a free port
 * (`startFirestore`: the official emulator when Java 21 and its jar are here, else our Node emulator).
 *
 * Seeding: one resource document and `ITEMS` item documents, each with its version document, shaped as the catalog writes them
 * (`itemOf` in functions/src/backups/catalog/repo.ts; the search fields made by the engine's own
 * `mailSearchFields` from generated headers), with BulkWriter. Subjects draw words from a vocabulary with
 * Zipf frequencies, so one word is in a large share of the items and others in a few dozen. When seeding
 * runs past `SEED_BUDGET_MS`, it stops and the figure says how many items it held.
 *
 * Then `QUERIES` searches, one at a time, in a fixed mixed order: no keyword (page 1 and a deep page), a
 * common word, a rare word, a date, two words (common and rare). Each is timed from the call to its answer, the audit entry it appends
 * included.
 */

import type { DocumentReference } from "firebase-admin/firestore";
import type { CatalogItem, CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { seededRandom } from "../../emulators/workspace/src/index";
import { ownFirestore } from "./own-firestore";
import type { MeasuredFigure } from "./types";
import type { BenchResult } from "./types";

const ITEMS = 100_000;
/** Seeding stops here (about 3 minutes) if it has not written `ITEMS` documents yet. */
const SEED_BUDGET_MS = 180_000;
/** 20 of each kind. */
const QUERIES = 120;
const ORGANIZATION_ID = "org-recovery-bench";
const RESOURCE_ID = "user-bench-mailbox";
const OWNER = "mailbox.owner@recovery-bench.test";
const ACTOR = "admin@recovery-bench.test";
const VOCABULARY = 3_000;
/** Frequency rank of the "rare" keyword (rank 1 is the most common word). */
export const RARE_RANK = 2_500;

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "sto",
  "var",
  "del",
  "nu",
  "pra",
  "tis",
  "gor",
  "fen",
  "bal",
  "qui",
];

/** The word of a rank: letters only, at least 4 of them, different for every rank. */
export function word(rank: number): string {
  let text = "";
  let rest = rank;
  do {
    text += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  } while (rest > 0);
  return text.length >= 4 ? text : `${text}ta`;
}

/** Picks ranks (0-based) with Zipf frequencies (exponent 1). */
function zipf(size: number, next: () => number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= size; rank += 1) cumulative.push((sum += 1 / rank));
  return () => {
    const target = next() * sum;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

const hex = (next: () => number, length: number): string =>
  Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join("");

interface Catalog {
  /** The item of an index and its one version, as the catalog writes them. */
  item(index: number): { id: string; data: CatalogItem; version: CatalogVersion };
}

export async function catalog(): Promise<Catalog> {
  const { mailSearchFields } = await import("../../functions/src/engine/gmail/source");
  const { itemOf } = await import("../../functions/src/engine/runner/catalog-items");
  // mulberry32, seeded: the same catalog on every run.
  const next = seededRandom(7_002);
  const pick = zipf(VOCABULARY, next);
  const senders = Array.from({ length: 400 }, (_, i) => ({
    name: `${word(i + 11)} ${word(i + 517)}`.replace(/^./, (c) => c.toUpperCase()),
    email: `${word(i + 11)}.${word(i + 517)}@${word(i % 40)}.test`,
  }));
  const end = Date.UTC(2026, 10, 22);
  const year = 365 * 86_400_000;
  return {
    item(index) {
      const itemKey = (0x18c0000000000000n + BigInt(index) * 7919n).toString(16);
      const sender = senders[Math.floor(next() * senders.length)] as (typeof senders)[number];
      const subject = Array.from({ length: 3 + Math.floor(next() * 5) }, () => word(pick())).join(" ");
      const date = new Date(end - next() * 5 * year);
      const capturedAt = new Date(Math.max(date.getTime(), end - year) + next() * 86_400_000).toISOString();
      const cc = next() < 0.3 ? `Cc: ${senders[index % senders.length]?.email}\r\n` : "";
      const header = Buffer.from(
        `From: "${sender.name}" <${sender.email}>\r\nTo: ${OWNER}\r\n${cc}Subject: ${subject}\r\n` +
          `Date: ${date.toUTCString()}\r\nMessage-ID: <${itemKey}@recovery-bench.test>\r\n\r\n`,
      );
      const size = 2_000 + Math.floor(next() * 200_000);
      const labels = next() < 0.2 ? ["SENT"] : ["INBOX", ...(next() < 0.5 ? ["UNREAD"] : [])];
      const versionKey = hex(next, 32);
      const version: CatalogVersion = {
        versionId: `${itemKey}@${versionKey}`,
        itemKey,
        kind: "gmail-message",
        versionKey,
        contentKey: hex(next, 64),
        capturedAt,
        runId: "run-recovery-bench",
        size,
        storedBytes: size,
        contentDigest: hex(next, 64),
        dataKeyId: "dk-recovery-bench",
        metadata: { labels: labels.map((label) => ({ id: label, name: label })) },
        search: mailSearchFields(header, size, { labels }),
        formatVersion: 1,
        chunks: [{ id: hex(next, 64), size }],
      };
      // The item as the catalog writes it for its first version (a message dated after its first backup
      // says so: never here, each is backed up after its date).
      return { id: itemKey, data: itemOf(version, undefined), version };
    },
  };
}

export interface QueryKind {
  name: string;
  query: Record<string, unknown>;
}

export function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;

/** The six kinds of search the benches mix: no keyword (page 1 and 100), a common word, a rare word, a date, two words. */
export function queryKinds(owner: string): QueryKind[] {
  const common = word(0);
  const rare = word(RARE_RANK - 1);
  return [
    { name: "no keyword, page 1", query: { resource: owner } },
    { name: "no keyword, page 100 (by its token)", query: { resource: owner, page: "100" } },
    { name: `keyword, common word "${common}"`, query: { resource: owner, keyword: common } },
    { name: `keyword, rare word "${rare}"`, query: { resource: owner, keyword: rare } },
    { name: "date 06-30-2026", query: { resource: owner, date: "06-30-2026" } },
    { name: `two words "${common} ${rare}"`, query: { resource: owner, keyword: `${common} ${rare}` } },
  ];
}

/**
 * The kinds with a deep page asked for as the console asks for it: by the previous page's `nextPageToken`
 * (the pages before are read once here, not timed).
 */
export async function withPageTokens(
  kinds: QueryKind[],
  search: (query: Record<string, unknown>) => Promise<{ nextPageToken: string | null }>,
): Promise<QueryKind[]> {
  return Promise.all(
    kinds.map(async (kind) => {
      const page = Number(kind.query.page ?? 1);
      let pageToken: string | null = null;
      for (let current = 1; current < page; current += 1) {
        const query: Record<string, unknown> = {
          ...kind.query,
          page: String(current),
          ...(pageToken ? { pageToken } : {}),
        };
        pageToken = (await search(query)).nextPageToken;
        if (!pageToken) throw new Error(`${kind.name}: the search ends before page ${page}`);
      }
      return pageToken ? { ...kind, query: { ...kind.query, pageToken } } : kind;
    }),
  );
}

/**
 * Seeds the mailbox (`owner`'s) and 20 more resources of its domain, as an organisation has (a name typed
 * in another case lists them all); then the mailbox's items, each with its version document, with
 * BulkWriter (flushed every 5,000 items) until `count` are stored or `budgetMs` has passed; checks the
 * emulator holds them all.
 */
export async function seedItems(
  resource: DocumentReference,
  owner: string,
  count = ITEMS,
  budgetMs = SEED_BUDGET_MS,
): Promise<{ seeded: number; seedSeconds: number }> {
  await resource.set({ type: "email", name: "Mailbox Owner", email: owner, status: "active" });
  const domain = owner.split("@")[1] ?? "example.test";
  for (let i = 0; i < 20; i += 1) {
    await resource.parent
      .doc(`user-other-${i}`)
      .set({ type: "email", name: `Other ${i}`, email: `other${i}@${domain}`, status: "active" });
  }
  const items = await catalog();
  const seedStarted = performance.now();
  const writer = resource.firestore.bulkWriter({ throttling: false });
  let seeded = 0;
  while (seeded < count && performance.now() - seedStarted < budgetMs) {
    for (const end = Math.min(count, seeded + 5_000); seeded < end; seeded += 1) {
      const { id, data, version } = items.item(seeded);
      const item = resource.collection("items").doc(id);
      void writer.set(item, data);
      // Its version document, which a date's view reads for each result shown.
      void writer.set(item.collection("versions").doc(version.versionId), { ...version, endedAt: null });
    }
    await writer.flush();
  }
  await writer.close();
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const stored = (await resource.collection("items").count().get()).data().count;
  if (stored !== seeded) throw new Error(`seeded ${seeded} items, the emulator holds ${stored}`);
  return { seeded, seedSeconds };
}

export async function measureSearch(): Promise<{ measured: MeasuredFigure[]; results: BenchResult[] }> {
  const emulator = await ownFirestore({ in: "this process" });
  try {
    // Loaded after the emulator's address is set: firebase-admin reads it when the app starts.
    const { organizationRef } = await import("../../functions/src/lib/tenancy");
    const { searchBackups } = await import("../../functions/src/search/service");
    const scope = { organizationId: ORGANIZATION_ID, regionId: "ch" } as const;
    const resource = organizationRef(scope).collection("resources").doc(RESOURCE_ID);
    const { seeded, seedSeconds } = await seedItems(resource, OWNER);
    console.log(`recovery bench: seeded ${seeded} items in ${seedSeconds.toFixed(0)} s [${emulator.kind}]`);

    const common = word(0);
    const kinds = await withPageTokens(queryKinds(OWNER), (query) =>
      searchBackups(scope, { service: "gmail", ...query }, ACTOR),
    );
    const totals = new Map<string, number>();
    const times = new Map<string, number[]>(kinds.map((kind) => [kind.name, []]));
    // One warm-up search of each kind (connections, first reads), not counted.
    for (const kind of kinds) {
      totals.set(kind.name, (await searchBackups(scope, { service: "gmail", ...kind.query }, ACTOR)).total);
    }
    for (let i = 0; i < QUERIES; i += 1) {
      const kind = kinds[i % kinds.length] as QueryKind;
      const started = performance.now();
      await searchBackups(scope, { service: "gmail", ...kind.query }, ACTOR);
      times.get(kind.name)?.push(performance.now() - started);
    }

    // What the catalog holds for the common word and the date, to check the searches' totals against.
    const itemsOfKind = resource.collection("items").where("kind", "==", "gmail-message");
    const commonHeld = (
      await itemsOfKind.where("search.keywords", "array-contains", common).count().get()
    ).data().count;
    const dateHeld = (
      await itemsOfKind.where("firstSeenAt", "<", "2026-07-01T00:00:00.000Z").count().get()
    ).data().count;

    const all = [...times.values()].flat().sort((a, b) => a - b);
    const results: BenchResult[] = kinds.map((kind) => {
      const sorted = (times.get(kind.name) ?? []).sort((a, b) => a - b);
      return {
        name: `search: ${kind.name}`,
        operations: sorted.length,
        milliseconds: sorted.reduce((sum, value) => sum + value, 0),
        note:
          `p50 ${ms(percentile(sorted, 0.5))}, p95 ${ms(percentile(sorted, 0.95))}, ` +
          `max ${ms(sorted[sorted.length - 1] ?? Number.NaN)}; ${totals.get(kind.name)?.toLocaleString("en-US")} found`,
      };
    });
    const perKind = kinds
      .map((kind) => {
        const sorted = times.get(kind.name) ?? [];
        return `${kind.name}: p95 ${ms(percentile(sorted, 0.95))} (${totals.get(kind.name)?.toLocaleString("en-US")} found)`;
      })
      .join("; ");
    const partial =
      seeded < ITEMS
        ? ` (seeding stopped after ${SEED_BUDGET_MS / 1000} s, short of ${ITEMS.toLocaleString("en-US")})`
        : "";
    return {
      measured: [
        {
          id: "search-p95-ms",
          value: percentile(all, 0.95),
          note:
            `${seeded.toLocaleString("en-US")} mail items in one mailbox${partial}, seeded with BulkWriter in ` +
            `${seedSeconds.toFixed(0)} s; Firestore: ${emulator.kind} emulator on a free port; ${QUERIES} ` +
            `searches one at a time, ${kinds.length} kinds in turn, each with its audit entry; p50 ` +
            `${ms(percentile(all, 0.5))}, p95 ${ms(percentile(all, 0.95))}, max ${ms(all[all.length - 1] ?? Number.NaN)}; ` +
            `${perKind}; the catalog holds ${commonHeld.toLocaleString("en-US")} items with "${common}" and ` +
            `${dateHeld.toLocaleString("en-US")} first seen before 07-01-2026`,
        },
      ],
      results,
    };
  } finally {
    await emulator.stop();
  }
}
