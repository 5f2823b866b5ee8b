/**
 * One section of the recovery bench in a process of its own, forked by `recovery.ts` (with the tsconfig
 * the product's imports need): `recovery-child.ts <section>` runs the section and sends its figures.
 */
import type { BenchResult, MeasuredFigure } from "./types";

export type RecoverySectionName = "restore" | "export" | "search";

export interface RecoverySectionReport {
  measured: MeasuredFigure[];
  /** Timings per kind of operation, printed as the bench's results table. */
  results: BenchResult[];
  /** Why the section could not finish. */
  error?: string;
}

type Section = () => Promise<{ measured: MeasuredFigure[]; results: BenchResult[] }>;

/** Loaded on demand: the search section's process does not hold the Workspace emulator's code. */
const SECTIONS: Record<RecoverySectionName, Section> = {
  restore: async () => ({
    measured: await (await import("./recovery-restore")).measureRestore(),
    results: [],
  }),
  export: async () => (await import("./recovery-export")).measureExport(),
  search: async () => (await import("./recovery-search")).measureSearch(),
};

async function main(name: string): Promise<RecoverySectionReport> {
  const section = SECTIONS[name as RecoverySectionName];
  if (!section) return { measured: [], results: [], error: `no section "${name}"` };
  try {
    return await section();
  } catch (error) {
    console.error(error);
    return { measured: [], results: [], error: error instanceof Error ? error.message : String(error) };
  }
}

if (process.send) {
  void main(process.argv[2] ?? "").then((report) => {
    // Clients keep sockets and timers alive: the section is over once its report is sent.
    process.send?.(report, () => process.exit(0));
  });
}
