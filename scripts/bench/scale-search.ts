/**
 * Section "search": the production `searchBackups` over the catalog of one mailbox of `scaleItems()` mail
 * items (1,000,000 unless `BENCH_SCALE_ITEMS` says otherwise), in a Firestore emulator of this section's
 * own, in a process of its own on free ports (as on the local stack, where `npm start` runs it: its
 * documents stay out of the timed process's heap). The catalog and the six kinds of search are the recovery bench's
 * (`recovery-search.ts`: Zipf keywords; no keyword page 1 and page 100, a common word, a rare word, a date,
 * two words), seeded with BulkWriter in batches of 5,000 items (each with its version document).
 *
 * Each search is timed from the call to its answer (its audit entry included) and its reads are counted:
 * on the client (`clientReads`: documents returned, aggregations as one each) and, once the emulator
 * reports them, by the emulator (`billedReads()`).
 */
import { billed, clientReads } from "./firestore-reads";
import { ownFirestore } from "./own-firestore";
import { percentile, queryKinds, seedItems, withPageTokens, type QueryKind } from "./recovery-search";
import { scaleItems } from "./scale-settings";
import type { BenchResult, MeasuredFigure } from "./types";

/** 20 of each kind. */
const QUERIES = 120;
const PAGE_SIZE = 25;
const ORGANIZATION_ID = "org-scale-bench";
const RESOURCE_ID = "user-scale-mailbox";
const OWNER = "mailbox.owner@scale-bench.test";
const ACTOR = "admin@scale-bench.test";

const ms = (value: number): string => `${value.toFixed(0)} ms`;
const n = (value: number): string => value.toLocaleString("en-US");

interface KindFigures {
  times: number[];
  reads: number[];
  /** Billed reads per search as the emulator counted them (empty when it does not count). */
  emulatorReads: number[];
  found: number;
}

export async function measureSearchAtScale(): Promise<{
  measured: MeasuredFigure[];
  results: BenchResult[];
}> {
  const items = scaleItems();
  // In a process of its own, as on the local stack: its million documents stay out of the timed heap.
  const emulator = await ownFirestore({ in: "its own process", heapMiB: 12_288 });
  try {
    // Loaded after the emulator's address is set: firebase-admin reads it when the app starts.
    const { organizationRef } = await import("../../functions/src/lib/tenancy");
    const { searchBackups } = await import("../../functions/src/search/service");
    const scope = { organizationId: ORGANIZATION_ID, regionId: "ch" } as const;
    const resource = organizationRef(scope).collection("resources").doc(RESOURCE_ID);
    const { seeded, seedSeconds } = await seedItems(resource, OWNER, items, Number.POSITIVE_INFINITY);
    console.log(`scale bench: seeded ${n(seeded)} items in ${seedSeconds.toFixed(0)} s [${emulator.kind}]`);

    const kinds = await withPageTokens(queryKinds(OWNER), (query) =>
      searchBackups(scope, { service: "gmail", pageSize: String(PAGE_SIZE), ...query }, ACTOR),
    );
    const figures = new Map<string, KindFigures>(
      kinds.map((kind) => [kind.name, { times: [], reads: [], emulatorReads: [], found: 0 }]),
    );
    const search = (kind: QueryKind) =>
      searchBackups(scope, { service: "gmail", pageSize: String(PAGE_SIZE), ...kind.query }, ACTOR);
    for (const kind of kinds) (figures.get(kind.name) as KindFigures).found = (await search(kind)).total;
    // This process's own garbage-collection pauses while the searches are timed (the emulator's are its own).
    const pauses: number[] = [];
    const observer = new PerformanceObserver((list) =>
      pauses.push(...list.getEntries().map((e) => e.duration)),
    );
    observer.observe({ entryTypes: ["gc"] });
    for (let i = 0; i < QUERIES; i += 1) {
      const kind = kinds[i % kinds.length] as QueryKind;
      const emulatorBefore = await emulator.billedReads();
      const reads = clientReads(resource.firestore);
      const started = performance.now();
      try {
        await search(kind);
      } finally {
        reads.stop();
      }
      const entry = figures.get(kind.name) as KindFigures;
      entry.times.push(performance.now() - started);
      entry.reads.push(billed(reads.count));
      const emulatorAfter = await emulator.billedReads();
      if (emulatorBefore !== null && emulatorAfter !== null)
        entry.emulatorReads.push(emulatorAfter - emulatorBefore);
    }

    observer.disconnect();
    const all = [...figures.values()].flatMap((entry) => entry.times).sort((a, b) => a - b);
    const maxReads = (entry: KindFigures) => Math.max(...entry.reads);
    const worst = Math.max(...[...figures.values()].map(maxReads));
    const maxEmulator = (entry: KindFigures) => Math.max(...entry.emulatorReads);
    const counted = [...figures.values()].every((entry) => entry.emulatorReads.length > 0);
    const results: BenchResult[] = kinds.map((kind) => {
      const entry = figures.get(kind.name) as KindFigures;
      const sorted = [...entry.times].sort((a, b) => a - b);
      return {
        name: `search at scale: ${kind.name}`,
        operations: sorted.length,
        milliseconds: sorted.reduce((sum, value) => sum + value, 0),
        note:
          `p50 ${ms(percentile(sorted, 0.5))}, p95 ${ms(percentile(sorted, 0.95))}; ` +
          `reads (client) max ${n(maxReads(entry))}` +
          (counted ? `, (emulator, billed) max ${n(maxEmulator(entry))}` : "") +
          `; ${n(entry.found)} found`,
      };
    });
    const setting =
      `${n(seeded)} mail items in one mailbox (seeded with BulkWriter in ${seedSeconds.toFixed(0)} s), ` +
      `${emulator.kind} emulator in a process of its own (as on the local stack); ${QUERIES} searches one at a time, ${kinds.length} kinds in turn, page size ${PAGE_SIZE}`;
    const emulatorWorst = counted ? Math.max(...[...figures.values()].map(maxEmulator)) : null;
    return {
      measured: [
        {
          id: "scale-search-p95-ms",
          value: percentile(all, 0.95),
          note:
            `${setting}; p50 ${ms(percentile(all, 0.5))}, max ${ms(all[all.length - 1] ?? Number.NaN)}; ` +
            `this process's GC paused ${ms(pauses.reduce((sum, p) => sum + p, 0))} in all, longest ` +
            `${ms(Math.max(0, ...pauses))}`,
        },
        {
          id: "scale-search-client-reads",
          value: worst,
          note:
            `${setting}; documents returned to firebase-admin per search plus one per aggregation, the worst ` +
            `kind's worst search (the audit entry's reads included; documents skipped by an offset are billed ` +
            `but not seen here); per kind: ` +
            kinds
              .map((kind) => `${kind.name} ${n(maxReads(figures.get(kind.name) as KindFigures))}`)
              .join("; "),
        },
        {
          id: "scale-search-emulator-reads",
          value: emulatorWorst,
          note:
            emulatorWorst === null
              ? "not measured: this Firestore emulator does not count its reads"
              : `${setting}; reads the emulator billed as Firestore bills them (documents returned, documents ` +
                `an offset skips, one per 1,000 index entries an aggregation reads, at least one per query), ` +
                `the worst kind's worst search; per kind: ` +
                kinds
                  .map((kind) => `${kind.name} ${n(maxEmulator(figures.get(kind.name) as KindFigures))}`)
                  .join("; "),
        },
      ],
      results,
    };
  } finally {
    await emulator.stop();
  }
}
