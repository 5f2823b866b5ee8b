import { useCallback, useEffect, useState } from "react";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { ApiError } from "@/lib/api-client";

export type QueryState<T> =
  | { status: "idle"; data: undefined; error: null }
  | { status: "loading"; data: T | undefined; error: null }
  | { status: "success"; data: T; error: null }
  | { status: "error"; data: T | undefined; error: ApiError };

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(UNEXPECTED_ERROR);
}

/**
 * Runs `request` whenever `key` changes (and on `refetch`), keeping the previous data while a new answer
 * loads so tables do not flash. A null `key` means "nothing to load yet" (no organisation).
 */
export function useApiQuery<T>(
  key: string | null,
  request: (signal: AbortSignal) => Promise<T>,
): QueryState<T> & { refetch: () => void } {
  const [state, setState] = useState<QueryState<T>>({ status: "idle", data: undefined, error: null });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (key === null) {
      setState({ status: "idle", data: undefined, error: null });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ status: "loading", data: previous.data, error: null }));
    request(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: "success", data, error: null });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((previous) => ({ status: "error", data: previous.data, error: asApiError(error) }));
      },
    );
    return () => controller.abort();
    // `request` is rebuilt on every render; `key` captures everything it depends on.
  }, [key, attempt]);

  const refetch = useCallback(() => setAttempt((value) => value + 1), []);
  return { ...state, refetch };
}

/** A write call: `run` resolves with the answer or rejects with an `ApiError`; `pending` while it runs. */
export function useApiMutation<A extends unknown[], T>(
  request: (...args: A) => Promise<T>,
): { run: (...args: A) => Promise<T>; pending: boolean } {
  const [pending, setPending] = useState(false);
  const run = useCallback(
    async (...args: A) => {
      setPending(true);
      try {
        return await request(...args);
      } catch (error) {
        throw asApiError(error);
      } finally {
        setPending(false);
      }
    },
    [request],
  );
  return { run, pending };
}
