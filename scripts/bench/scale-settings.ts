/**
 * The size of the scale bench's catalogs: 1,000,000 (the figure), or `BENCH_SCALE_ITEMS` for a
 * shorter run (`BENCH_SCALE_ITEMS=10000 npm run bench -- scale`), printed in every figure's note.
 */
export const SCALE_ITEMS = 1_000_000;

export function scaleItems(): number {
  const given = process.env.BENCH_SCALE_ITEMS;
  if (given === undefined || given === "") return SCALE_ITEMS;
  const value = Number(given);
  if (!Number.isInteger(value) || value < 100)
    throw new Error(`BENCH_SCALE_ITEMS must be an integer ≥ 100: ${given}`);
  return value;
}
