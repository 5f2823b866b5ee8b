/**
 * The catalog at scale (issue 17), each section in a fresh process (`scale-child.ts`), each with a
 * Firestore emulator of its own on a free port (no stack needed):
 *
 * - "search": `searchBackups` over 1,000,000 mail items of one mailbox, the six kinds of search mixed:
 *   p95 latency and documents read per search (`scale-search.ts`).
 * - "gc": `collectGarbage` over an organisation of 1,000,000 versions: wall time and reads
 *   (`scale-gc.ts`).
 *
 * `BENCH_SCALE_ITEMS=10000 npm run bench -- scale` runs both at 10,000 (a check that they work; the
 * figures' notes say the size).
 */
import { figureSpec } from "./types";
import { sectionedBench, type Section } from "./sections";
import type { ScaleSectionName } from "./scale-child";

/** Search results per page (the API's default), which bounds the reads a search may make. */
const PAGE_SIZE = 25;

const SECTIONS: Section<ScaleSectionName>[] = [
  {
    name: "search",
    figures: [
      figureSpec(
        "scale-search-p95-ms",
        "Search at scale (one mailbox): p95 latency, six kinds mixed",
        "<=",
        300,
        {
          unit: "ms",
        },
      ),
      figureSpec(
        "scale-search-client-reads",
        "Search at scale: documents read per search, worst kind (client count)",
        "<=",
        PAGE_SIZE + 10,
      ),
      figureSpec(
        "scale-search-emulator-reads",
        "Search at scale: billed reads per search, worst kind (emulator count)",
        "<=",
        PAGE_SIZE + 10,
        { digits: 1 },
      ),
    ],
  },
  {
    name: "gc",
    figures: [
      figureSpec(
        "scale-gc-reads-ratio",
        "GC at scale: reads ÷ (1.1 × live versions + chunk index entries read), client count",
        "<=",
        1,
        { digits: 2 },
      ),
      figureSpec(
        "scale-gc-emulator-reads-ratio",
        "GC at scale: reads ÷ (1.1 × live versions + chunk index entries read), emulator count",
        "<=",
        1,
        { digits: 2 },
      ),
    ],
  },
];

export const scaleBench = sectionedBench(
  "scale",
  "The catalog at scale: search over 1,000,000 items of one mailbox, GC over 1,000,000 versions (Firestore emulator of their own)",
  "scale-child.ts",
  SECTIONS,
);
