/**
 * Benchmarks (npm run bench). Each bench in `scripts/bench/` measures one part of the product and returns
 * its figures; this runner prints them as tables. Figures with targets are printed with their target and
 * "pass"/"miss", plus one `BENCH_JSON {…}` line per bench for scripts to grep. No threshold is asserted
 * here: a miss is reported, it does not fail the run.
 *
 *   npm run bench                        every bench
 *   npm run bench -- engine              only the named benches (firestore, workspace, engine, recovery, scale, web)
 *   npm run bench -- engine:large-file   only the named sections of a bench made of sections
 */
import { availableParallelism, totalmem } from "node:os";

import { engineBench } from "./bench/engine";
import { firestoreBench } from "./bench/firestore";
import { recoveryBench } from "./bench/recovery";
import { scaleBench } from "./bench/scale";
import { verdict, type Bench, type BenchFigure, type BenchResult } from "./bench/types";
import { webBench } from "./bench/web";
import { benchWorkspaceEmulator } from "./bench/workspace";

const workspaceBench: Bench = {
  id: "workspace",
  title: "Workspace emulator: Gmail messages.get?format=raw through the official client (quotas off)",
  run: benchWorkspaceEmulator,
};

const benches: Bench[] = [firestoreBench, workspaceBench, engineBench, recoveryBench, scaleBench, webBench];

/** A text table: the first and the last column left-aligned, the others right-aligned. */
function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const last = header.length - 1;
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === last ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function resultsTable(results: BenchResult[]): string {
  return textTable(
    ["benchmark", "ops", "total ms", "ops/s", "note"],
    results.map((r) => [
      r.name,
      String(r.operations),
      r.milliseconds.toFixed(0),
      ((r.operations / r.milliseconds) * 1000).toFixed(0),
      r.note ?? "",
    ]),
  );
}

function figuresTable(figures: BenchFigure[]): string {
  const shown = (value: number, figure: BenchFigure) =>
    `${value.toFixed(figure.digits)} ${figure.unit}`.trim();
  return textTable(
    ["figure", "target", "measured", "verdict"],
    figures.map((f) => [
      f.name,
      `${f.target.comparison} ${shown(f.target.value, f)}`,
      f.value === null ? "n/a" : shown(f.value, f),
      verdict(f),
    ]),
  );
}

function notes(figures: BenchFigure[]): string {
  return figures
    .filter((f) => f.note)
    .map((f) => `- ${f.name}: ${f.note}`)
    .join("\n");
}

async function main(): Promise<void> {
  // "engine" selects a bench, "engine:large-file" one of its sections.
  const only = process.argv.slice(2).map((arg) => {
    const [id = "", section] = arg.split(":");
    return { id, section };
  });
  const unknown = only.filter(({ id }) => !benches.some((bench) => bench.id === id)).map(({ id }) => id);
  if (unknown.length > 0) {
    throw new Error(`Unknown bench ${unknown.join(", ")} (known: ${benches.map((b) => b.id).join(", ")})`);
  }
  for (const bench of benches.filter((b) => only.length === 0 || only.some(({ id }) => id === b.id))) {
    console.log(`\n${bench.title}\n`);
    const chosen = only.filter(({ id }) => id === bench.id);
    const sections = chosen.some(({ section }) => section === undefined)
      ? undefined
      : chosen.flatMap(({ section }) => (section === undefined ? [] : [section]));
    const output = await bench.run(sections);
    const { results, figures } = Array.isArray(output) ? { results: output, figures: [] } : output;
    if (results.length > 0) console.log(resultsTable(results));
    if (figures.length === 0) continue;
    console.log(`\n${figuresTable(figures)}\n\n${notes(figures)}\n`);
    const report = {
      bench: bench.id,
      at: new Date().toISOString(),
      machine: {
        cpus: availableParallelism(),
        memoryMiB: Math.round(totalmem() / 2 ** 20),
        node: process.version,
      },
      figures: figures.map((f) => ({ ...f, verdict: verdict(f) })),
    };
    console.log(`BENCH_JSON ${JSON.stringify(report)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
