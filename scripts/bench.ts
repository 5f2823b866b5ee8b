/**
 * Benchmarks (npm run bench). Each bench in `scripts/bench/` measures one part of the local stack and
 * returns its figures; this runner prints them as a table. No thresholds are asserted here.
 */
import { firestoreBench } from "./bench/firestore";
import type { Bench, BenchResult } from "./bench/types";
import { benchWorkspaceEmulator } from "./bench/workspace";

const workspaceBench: Bench = {
  title: "Workspace emulator: Gmail messages.get?format=raw through the official client (quotas off)",
  run: benchWorkspaceEmulator,
};

const benches: Bench[] = [firestoreBench, workspaceBench];

function table(results: BenchResult[]): string {
  const rows = results.map((r) => [
    r.name,
    String(r.operations),
    r.milliseconds.toFixed(0),
    ((r.operations / r.milliseconds) * 1000).toFixed(0),
    r.note ?? "",
  ]);
  const header = ["benchmark", "ops", "total ms", "ops/s", "note"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === 4 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
  for (const bench of benches) {
    console.log(`\n${bench.title}\n`);
    console.log(table(await bench.run()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
