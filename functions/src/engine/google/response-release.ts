/**
 * When a call's slot is given back: at once, or (a response with a stream as `data`) when its stream is
 * done; and a wait that ends early when the call's signal aborts. See `quota-caller.ts`.
 */

function isStream(value: unknown): value is NodeJS.ReadableStream & {
  destroyed?: boolean;
  readableEnded?: boolean;
} {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { pipe?: unknown }).pipe === "function" &&
    typeof (value as { once?: unknown }).once === "function"
  );
}

/** A web stream that reads `stream` and calls `done` once it ends, fails or is cancelled. */
function watchWebStream<R>(stream: ReadableStream<R>, done: () => void): ReadableStream<R> {
  const reader = stream.getReader();
  return new ReadableStream<R>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          done();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/**
 * Gives the slot back now, or when the response's stream (`responseType: "stream"`: a Node stream, or a
 * web stream with gaxios on fetch, then replaced by one that tells when it is done) is done.
 */
export function releaseAfter<T>(result: T, release: () => void): T {
  const response = typeof result === "object" && result !== null ? (result as { data?: unknown }) : undefined;
  const data = response?.data;
  if (response && data instanceof ReadableStream && !data.locked) {
    response.data = watchWebStream(data as ReadableStream<unknown>, release);
    return result;
  }
  if (!isStream(data) || data.destroyed || data.readableEnded) {
    release();
    return result;
  }
  data.once("close", release);
  data.once("end", release);
  data.once("error", release);
  return result;
}

/** `promise`, or the signal's reason as soon as it is aborted. */
export function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error as Error);
      },
    );
  });
}
