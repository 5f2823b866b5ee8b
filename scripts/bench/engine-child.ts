/**
 * One section of the engine bench in a process of its own, forked by `engine.ts` (with the tsconfig the
 * engine's imports need): `engine-child.ts <section>` runs the section and sends its figures to the parent.
 */
import type { MeasuredFigure } from "./types";

export type SectionName = "mailbox" | "parallel" | "scale" | "corpus" | "large-file";

export interface SectionReport {
  measured: MeasuredFigure[];
  /** Why the section could not finish. */
  error?: string;
}

/** Loaded on demand: the large-file section's process must not hold the Workspace emulator's code. */
const SECTIONS: Record<SectionName, () => Promise<MeasuredFigure[]>> = {
  mailbox: async () => (await import("./engine-mailbox")).measureMailbox(),
  parallel: async () => (await import("./engine-parallel")).measureParallel(),
  scale: async () => (await import("./engine-scale")).measureScale(),
  corpus: async () => (await import("./engine-corpus")).measureCorpus(),
  "large-file": async () => (await import("./engine-large-file")).measureLargeFile(),
};

async function main(name: string): Promise<SectionReport> {
  const section = SECTIONS[name as SectionName];
  if (!section) return { measured: [], error: `no section "${name}"` };
  try {
    return { measured: await section() };
  } catch (error) {
    console.error(error);
    return { measured: [], error: error instanceof Error ? error.message : String(error) };
  }
}

if (process.send) {
  void main(process.argv[2] ?? "").then((report) => {
    // Clients keep sockets and timers alive: the section is over once its report is sent.
    process.send?.(report, () => process.exit(0));
  });
}
