/**
 * One section of the scale bench in a process of its own, forked by `scale.ts`: `scale-child.ts <section>`
 * runs the section and sends its figures.
 */
import type { BenchResult, MeasuredFigure } from "./types";

export type ScaleSectionName = "search" | "gc";

type Section = () => Promise<{ measured: MeasuredFigure[]; results: BenchResult[] }>;

const SECTIONS: Record<ScaleSectionName, Section> = {
  search: async () => (await import("./scale-search")).measureSearchAtScale(),
  gc: async () => (await import("./scale-gc")).measureGcAtScale(),
};

async function main(name: string) {
  const section = SECTIONS[name as ScaleSectionName];
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
