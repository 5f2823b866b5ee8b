import type { Recovery } from "@alpvault/contracts/recovery";
import { useEffect, useState } from "react";
import { getRecovery } from "../api/get-recovery";

/** How long after each answer a recovery under way is asked again. */
export const RECOVERY_POLL_MS = 2000;

export const isRecoveryOver = (recovery: Recovery) =>
  recovery.state === "succeeded" || recovery.state === "failed";

/**
 * Follows a recovery from the answer that started it: `GET …/recoveries/{id}` `RECOVERY_POLL_MS` after each
 * answer until it has succeeded or failed. A failed read is tried again at the next tick (the recovery goes
 * on meanwhile); the timer goes with the component.
 */
export function useRecoveryProgress(organizationId: string, started: Recovery): Recovery {
  const [recovery, setRecovery] = useState(started);
  const over = isRecoveryOver(recovery);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (over) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      getRecovery(organizationId, started.recoveryId, controller.signal).then(
        (next) => {
          setRecovery(next);
          setAttempt((value) => value + 1);
        },
        () => {
          if (!controller.signal.aborted) setAttempt((value) => value + 1);
        },
      );
    }, RECOVERY_POLL_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [organizationId, started.recoveryId, over, attempt]);

  return recovery;
}
