/**
 * Section "gc": the production `collectGarbage` over an organisation of `scaleItems()` versions (1,000,000
 * unless `BENCH_SCALE_ITEMS` says otherwise), in a Firestore emulator of this section's own on a free port,
 * with a memory bucket.
 *
 * One mailbox under a policy keeping 30 days. Every item has its current version (captured 60 days ago);
 * one item in twenty also has an older version it superseded then, which retention prunes: so of the
 * versions, 20/21 stay live. (The collection reads every version, the pruned ones too: the budget's 0.1 ×
 * live versions is for them and the collection's few other reads. A daily collection prunes what aged out
 * since the day before, far fewer; with one item in ten, the pruned versions alone fill the 0.1.)
 * Versions are seeded as the catalog writes them, saying when they stopped being current (`endedAt`), so
 * retention decides from them without reading the item documents.
 * Each version lists one chunk of its own inline; every chunk has its object and its chunk index entry
 * (last referenced a year ago), so the sweep deletes the pruned versions' chunks after reading their
 * index entries. Items, versions and chunk index entries are written with BulkWriter in batches.
 *
 * Measured: the collection's wall time and its reads (client-side: documents returned and aggregations;
 * the emulator's own count once it reports it), against the target reads ≤ 1.1 × live versions + chunk
 * index entries read.
 */
import { createHash } from "node:crypto";
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import type { ChunkRef } from "../../functions/src/engine/format/chunk-codec";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { billed, clientReads } from "./firestore-reads";
import { ownFirestore } from "./own-firestore";
import { scaleItems } from "./scale-settings";
import type { BenchResult, MeasuredFigure } from "./types";

const ORGANIZATION_ID = "org-scale-gc";
const RESOURCE_ID = "user-scale-gc";
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22);
/** One item in this many has an older, prunable version. */
const SUPERSEDED_EVERY = 20;
const BATCH_ITEMS = 2_000;

const n = (value: number): string => value.toLocaleString("en-US");
const chunkId = (text: string): string => createHash("sha256").update(text).digest("hex");
const iso = (at: number): string => new Date(at).toISOString();

interface Seeded {
  items: number;
  versions: number;
  seconds: number;
}

type Db = import("firebase-admin/firestore").Firestore;
type Store = import("../../functions/src/engine/blobstore/memory-blob-store").MemoryBlobStore;

/**
 * A version document as the catalog writes it (inline chunk list): `endedAt` null while it is current, its
 * successor's capture time once superseded.
 */
function version(
  itemKey: string,
  versionKey: string,
  at: number,
  endedAt: number | null,
): CatalogVersion & { chunks: ChunkRef[] } {
  const versionId = `${itemKey}@${versionKey}`;
  return {
    versionId,
    itemKey,
    kind: "gmail-message",
    versionKey,
    contentKey: chunkId(`content ${versionId}`),
    capturedAt: iso(at),
    runId: `run-${versionKey}`,
    size: 4_096,
    storedBytes: 4_096,
    contentDigest: chunkId(`digest ${versionId}`),
    dataKeyId: "dk-scale-gc",
    metadata: { labels: [{ id: "INBOX", name: "INBOX" }] },
    search: {
      kind: "mail",
      subject: "",
      fromName: "",
      fromEmail: "",
      to: [],
      date: iso(at),
      labels: ["inbox"],
      size: 4_096,
      keywords: [],
    },
    formatVersion: 1,
    chunks: [{ id: chunkId(`chunk ${versionId}`), size: 4_096 }],
    endedAt: endedAt === null ? null : iso(endedAt),
  };
}

async function seed(db: Db, store: Store, versions: number): Promise<Seeded> {
  const { catalogDocId } = await import("../../functions/src/engine/runner/catalog-ids");
  const { itemOf } = await import("../../functions/src/engine/runner/catalog-items");
  const { chunkObjectName } = await import("../../functions/src/engine/format/chunk-codec");
  const organization = db.collection("organizations").doc(ORGANIZATION_ID);
  await organization
    .collection("policies")
    .doc("month")
    .set({
      name: "Month",
      dataTypes: ["emails"],
      frequency: 1,
      schedule: "every-day",
      days: [],
      retentionDays: 30,
      archiving: false,
    });
  const resource = organization.collection("resources").doc(RESOURCE_ID);
  await resource.set({
    type: "email",
    name: "Scale",
    email: "scale@gc-bench.test",
    status: "active",
    policyId: "month",
  });
  const items = Math.round((versions * SUPERSEDED_EVERY) / (SUPERSEDED_EVERY + 1));
  const started = performance.now();
  const writer = db.bulkWriter({ throttling: false });
  let written = 0;
  for (let index = 0; index < items; index += 1) {
    const itemKey = `m${index.toString(16).padStart(12, "0")}`;
    // Captured 60 days ago: the older version it superseded then is past the 30 days.
    const current = version(itemKey, "v2", NOW - 60 * DAY, null);
    const kept =
      index % SUPERSEDED_EVERY === 0
        ? [version(itemKey, "v1", NOW - 400 * DAY, NOW - 60 * DAY), current]
        : [current];
    const item = resource.collection("items").doc(catalogDocId(itemKey));
    // The item as the catalog writes it, first seen with its oldest version.
    void writer.set(item, { ...itemOf(current, undefined), firstSeenAt: kept[0]!.capturedAt });
    for (const stored of kept) {
      void writer.set(item.collection("versions").doc(catalogDocId(stored.versionId)), stored);
      const chunk = stored.chunks[0]!;
      void writer.set(organization.collection("chunkRefs").doc(chunk.id), {
        size: chunk.size,
        storedSize: chunk.size,
        dataKeyId: "dk-scale-gc",
        firstRunId: stored.runId,
        lastReferencedAt: iso(NOW - 365 * DAY),
      });
      await store.putIfAbsent(chunkObjectName(ORGANIZATION_ID, chunk.id), Buffer.from([1]));
      written += 1;
    }
    if ((index + 1) % BATCH_ITEMS === 0) await writer.flush();
  }
  await writer.close();
  return { items, versions: written, seconds: (performance.now() - started) / 1000 };
}

export async function measureGcAtScale(): Promise<{ measured: MeasuredFigure[]; results: BenchResult[] }> {
  const versions = scaleItems();
  const emulator = await ownFirestore({ in: "this process" });
  try {
    // Loaded after the emulator's address is set: firebase-admin reads it when the app starts.
    const { tenantDb } = await import("../../functions/src/lib/tenancy");
    const { collectGarbage } = await import("../../functions/src/backups/retention/gc");
    const { MemoryBlobStore } = await import("../../functions/src/engine/blobstore/memory-blob-store");
    const { deriveKeys, newDataKey } = await import("../../functions/src/engine/format/keys");
    const scope = { organizationId: ORGANIZATION_ID, regionId: "ch" } as const;
    const store = new MemoryBlobStore();
    const seeded = await seed(tenantDb(scope), store, versions);
    console.log(
      `scale bench: seeded ${n(seeded.versions)} versions in ${seeded.seconds.toFixed(0)} s [${emulator.kind}]`,
    );

    const keys = deriveKeys(newDataKey());
    const emulatorBefore = await emulator.billedReads();
    const reads = clientReads(tenantDb(scope));
    // Node's own garbage collection pauses during the collection: the emulator keeps every document in
    // this process's heap, and each full pass over a larger heap takes longer.
    let pauseMs = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) pauseMs += entry.duration;
    });
    observer.observe({ entryTypes: ["gc"] });
    const started = performance.now();
    let result;
    try {
      result = await collectGarbage({
        scope,
        blobStore: store,
        keys: () => Promise.resolve(keys),
        now: new Date(NOW),
      });
    } finally {
      reads.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `scale bench: the collection over ${n(seeded.versions)} versions took ${seconds.toFixed(1)} s`,
    );
    observer.disconnect();
    const pauses = pauseMs / 1000;
    const heapMiB = Math.round(getHeapStatistics().used_heap_size / 2 ** 20);
    console.log(
      `scale bench: of which ${pauses.toFixed(1)} s in Node's garbage collection (heap ${n(heapMiB)} MiB, ` +
        `the emulator's documents included)`,
    );
    const emulatorAfter = await emulator.billedReads();
    const live = seeded.versions - result.versionsPruned;
    // The sweep reads the index entry of every chunk object nothing marked (all deleted here: referenced a year ago).
    const indexRead = result.chunksDeleted;
    const budget = 1.1 * live + indexRead;
    const read = billed(reads.count);
    const setting =
      `${n(seeded.versions)} versions of ${n(seeded.items)} items in one mailbox under a 30-day policy ` +
      `(seeded with BulkWriter in ${seeded.seconds.toFixed(0)} s), ${emulator.kind} emulator; the collection ` +
      `took ${seconds.toFixed(1)} s (${pauses.toFixed(1)} s of it Node's garbage collection, heap ` +
      `${n(heapMiB)} MiB), pruned ${n(result.versionsPruned)} versions, kept ${n(live)}, ` +
      `deleted ${n(result.chunksDeleted)} chunks`;
    return {
      measured: [
        {
          id: "scale-gc-reads-ratio",
          value: read / budget,
          note:
            `${setting}; ${n(read)} reads (client: ${n(reads.count.documents)} documents in ${n(reads.count.calls)} ` +
            `calls, ${n(reads.count.aggregations)} aggregations) against 1.1 × ${n(live)} live versions + ` +
            `${n(indexRead)} chunk index entries = ${n(Math.round(budget))}; of the reads, every version once ` +
            `(${n(seeded.versions)}), the chunk index entries, and ${n(read - seeded.versions - indexRead)} others ` +
            `(lock, policies, resources, runs, item documents)`,
        },
        {
          id: "scale-gc-emulator-reads-ratio",
          value:
            emulatorBefore === null || emulatorAfter === null
              ? null
              : (emulatorAfter - emulatorBefore) / budget,
          note:
            emulatorBefore === null
              ? "not measured: the Firestore emulator does not report its reads yet"
              : `${setting}; reads the emulator billed as Firestore bills them ÷ the same budget`,
        },
      ],
      results: [
        {
          name: "GC at scale: one collection (versions walked)",
          operations: seeded.versions,
          milliseconds: seconds * 1000,
          note: `wall time ${seconds.toFixed(1)} s (${pauses.toFixed(1)} s Node's garbage collection); ${n(read)} reads`,
        },
      ],
    };
  } finally {
    await emulator.stop();
  }
}
