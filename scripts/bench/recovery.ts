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
import { figureSpec } from "./types";
import { sectionedBench, type Section } from "./sections";

/** What each section measures (names, units, targets); the section reports the values and notes. */
const SECTIONS: Section<RecoverySectionName>[] = [
  {
    name: "restore",
    figures: [
      figureSpec(
        "gmail-restore-ceiling-fraction",
        `Gmail restore, ${RESTORE_CONCURRENCY} imports at once: units per quota minute ÷ per-user limit (steady)`,
        ">=",
        0.9,
        { digits: 3 },
      ),
      figureSpec(
        "gmail-restore-ceiling-fraction-sequential",
        "Gmail restore, 1 import at a time: units per quota minute ÷ per-user limit (steady)",
        ">=",
        0.9,
        { digits: 3 },
      ),
    ],
  },
  {
    name: "export",
    figures: [
      figureSpec(
        "export-2gib-peak-rss-mib",
        "Export job of a 2 GiB mailbox (MBOX): the worker's peak RSS",
        "<=",
        256,
        { unit: "MiB" },
      ),
      figureSpec(
        "export-2gib-identical-fraction",
        "Export job of a 2 GiB mailbox: messages read back identical by an independent MBOX reader",
        ">=",
        1,
        { digits: 4 },
      ),
      figureSpec(
        "export-2gib-deliveries",
        "Export job of a 2 GiB mailbox: task deliveries it took (20 s budget each)",
        ">=",
        2,
      ),
    ],
  },
  {
    name: "search",
    figures: [
      figureSpec(
        "search-p95-ms",
        "Search (searchBackups) over the catalog of one mailbox: p95 latency, mixed queries",
        "<=",
        300,
        { unit: "ms" },
      ),
    ],
  },
];

export const recoveryBench = sectionedBench(
  "recovery",
  "Recovery and search: GmailRestorer against the Workspace emulator (quotas on, time-scaled); searchBackups on a Firestore emulator",
  "recovery-child.ts",
  SECTIONS,
);
