/**
 * Recovery and search figures (issue 7), each section in a fresh process (`recovery-child.ts`), as the
 * engine bench does it:
 *
 * - "restore": the production `GmailRestorer` importing backed-up messages into a mailbox through one
 *   `quotaAwareCaller`, against the Workspace emulator with quotas on (2026 model), time-scaled; Gmail
 *   import units per quota minute over the steady part as a fraction of the per-user limit, with several
 *   imports in flight and with one at a time.
 * - "export": an export job of a 2 GiB mailbox run by the production worker across many task deadlines
 *   (`recovery-export.ts`): its peak RSS and every message read back byte for byte.
 * - "search": the production `searchBackups` over a catalog of 100,000 mail items in a Firestore emulator
 *   of its own (firebase-admin, as the API reads it); latency percentiles per kind of query.
 *
 * A section that fails reports its figures as not measured; the other section still runs.
 */
import type { RecoverySectionName } from "./recovery-child";
import { RESTORE_CONCURRENCY } from "./recovery-restore-settings";
import type { Bench, BenchFigure, BenchReport } from "./types";
import { runSections } from "./sections";

/** What each section measures (names, units, targets); the section reports the values and notes. */
const SECTIONS: { name: RecoverySectionName; figures: Omit<BenchFigure, "value" | "note">[] }[] = [
  {
    name: "restore",
    figures: [
      {
        id: "gmail-restore-ceiling-fraction",
        name: `Gmail restore, ${RESTORE_CONCURRENCY} imports at once: units per quota minute ÷ per-user limit (steady)`,
        unit: "",
        digits: 3,
        target: { comparison: ">=", value: 0.9 },
      },
      {
        id: "gmail-restore-ceiling-fraction-sequential",
        name: "Gmail restore, 1 import at a time: units per quota minute ÷ per-user limit (steady)",
        unit: "",
        digits: 3,
        target: { comparison: ">=", value: 0.9 },
      },
    ],
  },
  {
    name: "export",
    figures: [
      {
        id: "export-2gib-peak-rss-mib",
        name: "Export job of a 2 GiB mailbox (MBOX): the worker's peak RSS",
        unit: "MiB",
        digits: 0,
        target: { comparison: "<=", value: 256 },
      },
      {
        id: "export-2gib-identical-fraction",
        name: "Export job of a 2 GiB mailbox: messages read back identical by an independent MBOX reader",
        unit: "",
        digits: 4,
        target: { comparison: ">=", value: 1 },
      },
      {
        id: "export-2gib-deliveries",
        name: "Export job of a 2 GiB mailbox: task deliveries it took (20 s budget each)",
        unit: "",
        digits: 0,
        target: { comparison: ">=", value: 2 },
      },
    ],
  },
  {
    name: "search",
    figures: [
      {
        id: "search-p95-ms",
        name: "Search (searchBackups) over the catalog of one mailbox: p95 latency, mixed queries",
        unit: "ms",
        digits: 0,
        target: { comparison: "<=", value: 300 },
      },
    ],
  },
];

export const recoveryBench: Bench = {
  id: "recovery",
  title:
    "Recovery and search: GmailRestorer against the Workspace emulator (quotas on, time-scaled); searchBackups on a Firestore emulator",
  run(only): Promise<BenchReport> {
    return runSections("recovery", "recovery-child.ts", SECTIONS, only);
  },
};
