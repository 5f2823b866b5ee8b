import type { Recovery } from "@alpvault/contracts/recovery";
import { useQuery } from "@tanstack/react-query";
import { getRecovery } from "../api/get-recovery";

/** How long after each answer a recovery under way is asked again. */
export const RECOVERY_POLL_MS = 2000;

export const isRecoveryOver = (recovery: Recovery) =>
  recovery.state === "succeeded" || recovery.state === "failed";

export const recoveriesKeys = {
  one: (organizationId: string, recoveryId: string) => ["recoveries", organizationId, recoveryId] as const,
};

/**
 * Follows a recovery from the answer that started it: `GET …/recoveries/{id}` `RECOVERY_POLL_MS` after each
 * answer until it has succeeded or failed. A failed read is tried again at the next tick (the recovery goes
 * on meanwhile, and the last answer stays shown).
 */
export function useRecoveryProgress(organizationId: string, started: Recovery): Recovery {
  const { data } = useQuery({
    queryKey: recoveriesKeys.one(organizationId, started.recoveryId),
    queryFn: ({ signal }) => getRecovery(organizationId, started.recoveryId, signal),
    initialData: started,
    // The answer that started it is fresh: the first read follows one interval later.
    staleTime: RECOVERY_POLL_MS,
    refetchInterval: (query) =>
      query.state.data && isRecoveryOver(query.state.data) ? false : RECOVERY_POLL_MS,
    refetchIntervalInBackground: true,
  });
  return data;
}
