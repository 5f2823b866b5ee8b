/** One measured figure of a benchmark. */
export interface BenchResult {
  name: string;
  operations: number;
  milliseconds: number;
  /** Anything a reader needs to interpret the figure (e.g. a correctness check). */
  note?: string;
}

/**
 * A figure with a target, for what "ops/s" does not describe (fractions, units, bytes). A miss is
 * reported, never thrown: benches report, tests assert.
 */
export interface BenchFigure {
  /** A stable id for the JSON line, e.g. `gmail-ceiling-fraction`. */
  id: string;
  name: string;
  /** null: not measured (the note says why). */
  value: number | null;
  unit: string;
  /** Decimals shown in the table (the JSON line has the full value). */
  digits: number;
  /** The figure passes when `value <comparison> target.value`. */
  target: { comparison: ">=" | "<="; value: number };
  /** How it was measured and what else a reader needs (time scale, sizes, method). */
  note?: string;
}

/** What a section measures: a figure before its value. */
export type FigureSpec = Omit<BenchFigure, "value" | "note">;

/** A figure's id, name and target (`comparison` `value`), shown with `digits` decimals in `unit`. */
export function figureSpec(
  id: string,
  name: string,
  comparison: BenchFigure["target"]["comparison"],
  value: number,
  shown: { unit?: string; digits?: number } = {},
): FigureSpec {
  return { id, name, unit: shown.unit ?? "", digits: shown.digits ?? 0, target: { comparison, value } };
}

export interface BenchReport {
  results: BenchResult[];
  figures: BenchFigure[];
}

export interface Bench {
  /** Selects the bench on the command line (`npm run bench -- <id> …`). */
  id: string;
  title: string;
  /** `sections`: only these of a bench made of sections (`npm run bench -- engine:large-file`). */
  run(sections?: readonly string[]): Promise<BenchResult[] | BenchReport>;
}

/** Runs `fn` and returns its duration in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** "pass" or "miss" against the target, "n/a" when the figure was not measured. */
export function verdict(figure: BenchFigure): "pass" | "miss" | "n/a" {
  if (figure.value === null || !Number.isFinite(figure.value)) return "n/a";
  const { comparison, value } = figure.target;
  return (comparison === ">=" ? figure.value >= value : figure.value <= value) ? "pass" : "miss";
}

/** A figure's value (by the id `engine.ts` or `recovery.ts` gives it) and how it was measured, as a child process reports it. */
export interface MeasuredFigure {
  id: string;
  value: number | null;
  note: string;
}
