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
import { figureSpec } from "./types";
import { sectionedBench, type Section } from "./sections";

/** What each section measures (names, units, targets); the section reports the values and notes. */
const SECTIONS: Section<SectionName>[] = [
  {
    name: "mailbox",
    figures: [
      figureSpec(
        "gmail-ceiling-fraction",
        "Gmail full backup, one mailbox: units per quota minute ÷ per-user limit (steady part)",
        ">=",
        0.95,
        { digits: 3 },
      ),
      figureSpec(
        "gmail-units-per-message",
        "Gmail full backup (page size 500): quota units per message",
        "<=",
        20.1,
        { unit: "units", digits: 3 },
      ),
      figureSpec(
        "gmail-incremental-units",
        "Gmail incremental run, unchanged mailbox of 10,000 messages: quota units",
        "<=",
        2,
        { unit: "units" },
      ),
    ],
  },
  {
    name: "parallel",
    figures: [
      figureSpec(
        "gmail-parallel-ceiling-fraction",
        "5 mailboxes in parallel, one shared caller: units per quota minute ÷ combined limit",
        ">=",
        0.9,
        { digits: 3 },
      ),
    ],
  },
  {
    name: "scale",
    figures: [
      figureSpec(
        "scale-ceiling-fraction",
        "200 mailboxes at once under the daily budget: units per quota minute ÷ min(200 × per-user, project limit)",
        ">=",
        0.9,
        { digits: 3 },
      ),
      figureSpec(
        "scale-refused-units",
        "200 mailboxes at once: Gmail units of the calls the emulator refused (429, 403)",
        "<=",
        0,
        { unit: "units" },
      ),
      figureSpec("scale-failed-calls", "200 mailboxes at once: calls that failed for good", "<=", 0),
      figureSpec(
        "scale-daily-threshold-fraction",
        "200 mailboxes at once: Gmail units charged that quota day ÷ the project's daily threshold",
        "<=",
        1,
        { digits: 3 },
      ),
    ],
  },
  {
    name: "corpus",
    figures: [
      figureSpec(
        "stored-to-source-bytes",
        "Stored bytes ÷ source bytes, bench corpus (mail + My Drive)",
        "<=",
        0.33,
        { digits: 3 },
      ),
    ],
  },
  {
    name: "large-file",
    figures: [
      figureSpec(
        "large-file-deliveries",
        "3 GiB Drive file: task deliveries, each later one resumed by Range",
        ">=",
        2,
      ),
      figureSpec(
        "large-file-downloaded-ratio",
        "3 GiB Drive file: bytes downloaded ÷ file size, all deliveries",
        "<=",
        1.01,
        { digits: 4 },
      ),
      figureSpec(
        "large-file-peak-rss",
        "3 GiB Drive file: peak RSS of the backup (DriveSource + runBackup)",
        "<=",
        256,
        { unit: "MiB" },
      ),
      figureSpec(
        "large-file-restored-identical",
        "3 GiB Drive file: restored byte for byte (md5, 1 = yes)",
        ">=",
        1,
      ),
      figureSpec(
        "large-file-restore-peak-rss",
        "3 GiB Drive file: peak RSS of the restore (DriveRestorer)",
        "<=",
        256,
        { unit: "MiB" },
      ),
    ],
  },
  {
    name: "calendar",
    figures: [
      figureSpec(
        "calendar-ceiling-fraction",
        "Calendar full backup, one user with 1,200 calendars: requests per quota minute ÷ per-user limit (steady part)",
        ">=",
        0.95,
        { digits: 3 },
      ),
      figureSpec(
        "calendar-units-per-event",
        "Calendar full backup, one calendar of 20,000 events: quota units per event",
        "<=",
        0.01,
        { unit: "units", digits: 4 },
      ),
      figureSpec(
        "calendar-restore-ceiling-fraction",
        "Calendar restore, 2,400 events into a new calendar: requests per quota minute ÷ per-user limit (steady part)",
        ">=",
        0.9,
        { digits: 3 },
      ),
    ],
  },
  {
    name: "contacts",
    figures: [
      figureSpec(
        "contacts-backup-google-share",
        "Contacts full backup, 25,000 contacts: share of the run waiting on Google (no per-user ceiling binds it)",
        ">=",
        0.95,
        { digits: 3 },
      ),
      figureSpec(
        "contacts-units-per-contact",
        "Contacts full backup, 10,000 contacts: quota units per contact",
        "<=",
        0.01,
        { unit: "units", digits: 4 },
      ),
      figureSpec(
        "contacts-restore-ceiling-fraction",
        "Contacts restore, 600 contacts with photos: requests per quota minute ÷ per-user limit (steady part)",
        ">=",
        0.9,
        { digits: 3 },
      ),
    ],
  },
];

export const engineBench = sectionedBench(
  "engine",
  "Backup engine against the Workspace emulator (quotas on, 2026 model, time-scaled; memory catalog, memory blob store but for the large file's, on disk)",
  "engine-child.ts",
  SECTIONS,
);
