/**
 * Runs `work` over `values`, at most `parallel` at once. After the first error no new work starts; the
 * work in flight finishes, then that error is thrown.
 */
export async function inParallel<T>(
  values: readonly T[],
  parallel: number,
  work: (value: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < values.length && !failure) {
      try {
        await work(values[next++] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, values.length) }, worker));
  if (failure) throw failure.error;
}

/**
 * One promise per key: callers at once share one `make` (one label or folder created, not two); a failure
 * is forgotten, so the next caller tries again.
 */
export class SharedByKey<T> {
  private readonly pending = new Map<string, Promise<T>>();

  get(key: string, make: () => Promise<T>): Promise<T> {
    let value = this.pending.get(key);
    if (!value) {
      value = make();
      value.catch(() => this.pending.delete(key));
      this.pending.set(key, value);
    }
    return value;
  }
}
