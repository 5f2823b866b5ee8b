/** An `await` of a value that is not a promise: the code reads as if it waited for something. */
export async function total(values: number[]): Promise<number> {
  const sum = values.reduce((left, right) => left + right, 0);
  return await sum;
}
