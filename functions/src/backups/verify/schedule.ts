/**
 * When an organisation's daily verification is due (docs/backup-engine.md "Integrity verification"): a day
 * after the last one the dispatcher started, the first a day after the organisation's set-up. The
 * dispatcher starts it at its first run from then (every 10 minutes); the integrity report says when.
 */
import type { DailyVerification } from "@alpvault/contracts/integrity";

const DAY_MS = 24 * 3600 * 1000;

export function dailyVerification(lastScheduledAt: string | undefined, createdAt: string): DailyVerification {
  const since = lastScheduledAt ?? createdAt;
  return {
    nextAt: new Date(Date.parse(since) + DAY_MS).toISOString(),
    lastAt: lastScheduledAt ?? null,
  };
}
