/**
 * How a running recovery's pace is measured (docs/backup-engine.md "Totals, rate and time left"): by the
 * items it imported into Google, or tried to (restored and failed), since it started. Items it settled
 * without a call (already in the mailbox, kept without content, not in the backups) spend none of Google's
 * limits: counted, they made the pace read faster than the import limit it names.
 */
import type { RecoveryProgress } from "@alpvault/contracts/recovery";

export function measuredImports(
  progress: Pick<RecoveryProgress, "restored" | "failed">,
  bytes: number,
  startedAt: string | null,
  now: Date,
): { items: number; bytes: number; seconds: number } | undefined {
  if (!startedAt) return undefined;
  return {
    items: progress.restored + progress.failed,
    bytes,
    seconds: (now.getTime() - Date.parse(startedAt)) / 1000,
  };
}
