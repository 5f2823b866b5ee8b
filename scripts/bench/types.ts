/** One measured figure of a benchmark. */
export interface BenchResult {
  name: string;
  operations: number;
  milliseconds: number;
  /** Anything a reader needs to interpret the figure (e.g. a correctness check). */
  note?: string;
}

export interface Bench {
  title: string;
  run(): Promise<BenchResult[]>;
}

/** Runs `fn` and returns its duration in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
