/**
 * Benches made of sections, each run in a fresh process (a child script that measures one section and
 * sends its report): the engine and recovery benches. A section that fails reports its figures as not
 * measured; the others still run.
 */
import { fork } from "node:child_process";
import { join } from "node:path";
import type { Bench, BenchFigure, BenchReport, BenchResult, FigureSpec, MeasuredFigure } from "./types";

/** What a section's process sends back. */
export interface SectionReport {
  measured: { id: string; value: number | null; note: string }[];
  /** Timings per kind of operation (printed as the bench's results table). */
  results?: BenchResult[];
  /** Why the section could not finish. */
  error?: string;
}

export interface Section<Name extends string> {
  name: Name;
  /** What the section measures (names, units, targets); the section reports the values and notes. */
  figures: FigureSpec[];
}

/** What one section measures, run in its own process. */
export type SectionRun = () => Promise<{ measured: MeasuredFigure[]; results?: BenchResult[] }>;

/**
 * The body of a section's process (`childScript <name>`, forked by `runSections`): runs the named section of
 * `sections` (each loaded on demand, so a process holds only its own section's code) and sends its report.
 */
export function serveSection(sections: Record<string, SectionRun>): void {
  if (!process.send) return;
  const name = process.argv[2] ?? "";
  const report = async (): Promise<SectionReport> => {
    const section = Object.hasOwn(sections, name) ? sections[name] : undefined;
    if (!section) return { measured: [], error: `no section "${name}"` };
    try {
      return await section();
    } catch (error) {
      console.error(error);
      return { measured: [], error: error instanceof Error ? error.message : String(error) };
    }
  };
  void report().then((sent) => {
    // Clients keep sockets and timers alive: the section is over once its report is sent.
    process.send?.(sent, () => process.exit(0));
  });
}

/** Runs one section in its own process (`childScript <name>`) and answers its report. */
function runSection(childScript: string, name: string): Promise<SectionReport> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, childScript), [name], {
      env: { ...process.env, TSX_TSCONFIG_PATH: join(__dirname, "..", "tsconfig.json") },
    });
    let report: SectionReport | undefined;
    child.on("message", (message) => {
      report = message as SectionReport;
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (report) resolve(report);
      else
        reject(new Error(`the section's process ended (${signal ?? `exit code ${code}`}) without figures`));
    });
  });
}

/** Runs every section (or only those named) in turn and gathers their figures and results. */
export async function runSections<Name extends string>(
  bench: string,
  childScript: string,
  sections: readonly Section<Name>[],
  only?: readonly string[],
): Promise<BenchReport> {
  const unknown = (only ?? []).filter((name) => !sections.some((section) => section.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown ${bench} section ${unknown.join(", ")} (known: ${sections.map((s) => s.name).join(", ")})`,
    );
  }
  const figures: BenchFigure[] = [];
  const results: BenchResult[] = [];
  for (const section of sections.filter((s) => !only || only.length === 0 || only.includes(s.name))) {
    const started = performance.now();
    console.log(`${bench} bench: section "${section.name}"…`);
    let report: SectionReport;
    try {
      report = await runSection(childScript, section.name);
    } catch (error) {
      report = { measured: [], error: error instanceof Error ? error.message : String(error) };
    }
    results.push(...(report.results ?? []));
    for (const figure of section.figures) {
      const measured = report.measured.find((m) => m.id === figure.id);
      figures.push(
        measured
          ? { ...figure, value: measured.value, note: measured.note }
          : {
              ...figure,
              value: null,
              note: `not measured: ${report.error ?? "the section did not report it"}`,
            },
      );
    }
    console.log(
      `${bench} bench: section "${section.name}" took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  return { results, figures };
}

/** A bench made of sections, each run in a fresh process of `childScript` (`npm run bench -- <id>:<section>`). */
export function sectionedBench<Name extends string>(
  id: string,
  title: string,
  childScript: string,
  sections: readonly Section<Name>[],
): Bench {
  return { id, title, run: (only) => runSections(id, childScript, sections, only) };
}
