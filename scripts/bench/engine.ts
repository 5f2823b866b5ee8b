/**
 * The backup engine's figures (issue 6): the real engine code (`GmailSource`, `DriveSource`, `runBackup`,
 * `quotaAwareCaller`, the AVC1 format) against our Workspace emulator with quotas on (Google's 2026 model)
 * and its quota clock sped up, so that a quota minute lasts seconds.
 *
 * Each section runs in a fresh Node process (`engine-child.ts`), so one section's memory (a 10,000-message
 * mailbox in the emulator is about a gigabyte) neither slows nor measures another, and because the engine
 * needs the `@alpvault/contracts/*` path of `scripts/tsconfig.json`, which plain `tsx scripts/bench.ts`
 * does not read. A section that fails reports its figures as not measured; the other sections still run.
 */
import type { SectionName } from "./engine-child";
import type { Bench, BenchFigure, BenchReport } from "./types";
import { runSections } from "./sections";

/** What each section measures (names, units, targets); the section reports the values and notes. */
const SECTIONS: { name: SectionName; figures: Omit<BenchFigure, "value" | "note">[] }[] = [
  {
    name: "mailbox",
    figures: [
      {
        id: "gmail-ceiling-fraction",
        name: "Gmail full backup, one mailbox: units per quota minute ÷ per-user limit (steady part)",
        unit: "",
        digits: 3,
        target: { comparison: ">=", value: 0.95 },
      },
      {
        id: "gmail-units-per-message",
        name: "Gmail full backup (page size 500): quota units per message",
        unit: "units",
        digits: 3,
        target: { comparison: "<=", value: 20.1 },
      },
      {
        id: "gmail-incremental-units",
        name: "Gmail incremental run, unchanged mailbox of 10,000 messages: quota units",
        unit: "units",
        digits: 0,
        target: { comparison: "<=", value: 2 },
      },
    ],
  },
  {
    name: "parallel",
    figures: [
      {
        id: "gmail-parallel-ceiling-fraction",
        name: "5 mailboxes in parallel, one shared caller: units per quota minute ÷ combined limit",
        unit: "",
        digits: 3,
        target: { comparison: ">=", value: 0.9 },
      },
    ],
  },
  {
    name: "scale",
    figures: [
      {
        id: "scale-ceiling-fraction",
        name: "200 mailboxes at once under the daily budget: units per quota minute ÷ min(200 × per-user, project limit)",
        unit: "",
        digits: 3,
        target: { comparison: ">=", value: 0.9 },
      },
      {
        id: "scale-refused-units",
        name: "200 mailboxes at once: Gmail units of the calls the emulator refused (429, 403)",
        unit: "units",
        digits: 0,
        target: { comparison: "<=", value: 0 },
      },
      {
        id: "scale-failed-calls",
        name: "200 mailboxes at once: calls that failed for good",
        unit: "",
        digits: 0,
        target: { comparison: "<=", value: 0 },
      },
      {
        id: "scale-daily-threshold-fraction",
        name: "200 mailboxes at once: Gmail units charged that quota day ÷ the project's daily threshold",
        unit: "",
        digits: 3,
        target: { comparison: "<=", value: 1 },
      },
    ],
  },
  {
    name: "corpus",
    figures: [
      {
        id: "stored-to-source-bytes",
        name: "Stored bytes ÷ source bytes, bench corpus (mail + My Drive)",
        unit: "",
        digits: 3,
        target: { comparison: "<=", value: 0.33 },
      },
    ],
  },
  {
    name: "large-file",
    figures: [
      {
        id: "large-file-deliveries",
        name: "3 GiB Drive file: task deliveries, each later one resumed by Range",
        unit: "",
        digits: 0,
        target: { comparison: ">=", value: 2 },
      },
      {
        id: "large-file-downloaded-ratio",
        name: "3 GiB Drive file: bytes downloaded ÷ file size, all deliveries",
        unit: "",
        digits: 4,
        target: { comparison: "<=", value: 1.01 },
      },
      {
        id: "large-file-peak-rss",
        name: "3 GiB Drive file: peak RSS of the backup (DriveSource + runBackup)",
        unit: "MiB",
        digits: 0,
        target: { comparison: "<=", value: 256 },
      },
      {
        id: "large-file-restored-identical",
        name: "3 GiB Drive file: restored byte for byte (md5, 1 = yes)",
        unit: "",
        digits: 0,
        target: { comparison: ">=", value: 1 },
      },
      {
        id: "large-file-restore-peak-rss",
        name: "3 GiB Drive file: peak RSS of the restore (DriveRestorer)",
        unit: "MiB",
        digits: 0,
        target: { comparison: "<=", value: 256 },
      },
    ],
  },
];

export const engineBench: Bench = {
  id: "engine",
  title:
    "Backup engine against the Workspace emulator (quotas on, 2026 model, time-scaled; memory catalog, memory blob store but for the large file's, on disk)",
  run(only): Promise<BenchReport> {
    return runSections("engine", "engine-child.ts", SECTIONS, only);
  },
};
