import {
  QueryClient,
  useMutation,
  useQueryClient,
  type QueryKey,
  type UseQueryResult,
} from "@tanstack/react-query";
import { useCallback } from "react";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { ApiError } from "@/lib/api-client";

declare module "@tanstack/react-query" {
  interface Register {
    /** Every request function answers or throws an `ApiError` (see `api-client.ts`). */
    defaultError: ApiError;
  }
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(UNEXPECTED_ERROR);
}

/**
 * The app's one query cache. A failed call is shown at once (no retries, which would hold back the
 * snackbar or notice the screens show), and data is read again when a screen mounts or after a change
 * (invalidation), not when the window regains focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** True while a query loads or reloads (the screens' busy bars). */
export const isLoading = (query: Pick<UseQueryResult, "fetchStatus">): boolean =>
  query.fetchStatus === "fetching";

/**
 * A write call: `run` resolves with the answer or rejects with an `ApiError`; `pending` while it runs.
 * After a success, the queries under each key `invalidates` names are read again.
 */
export function useApiMutation<A extends unknown[], T>(
  request: (...args: A) => Promise<T>,
  invalidates?: (...args: A) => readonly QueryKey[],
): { run: (...args: A) => Promise<T>; pending: boolean } {
  const client = useQueryClient();
  const { mutateAsync, isPending } = useMutation<T, ApiError, A>({
    mutationFn: async (args) => {
      try {
        return await request(...args);
      } catch (error) {
        throw asApiError(error);
      }
    },
    onSuccess: (_answer, args) => {
      for (const queryKey of invalidates?.(...args) ?? []) void client.invalidateQueries({ queryKey });
    },
  });
  const run = useCallback((...args: A) => mutateAsync(args), [mutateAsync]);
  return { run, pending: isPending };
}
