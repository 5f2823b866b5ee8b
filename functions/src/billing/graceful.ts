/**
 * The graceful period (docs/requirements.md#states-and-flows): a failed renewal of what the customer has starts it (a declined extra,
 * an upgrade or storage packs, does not), backups go on until it ends, then they stop;
 * a successful payment resets it. Pure rules over the account; the repo applies them in transactions.
 */
import type { Account, GracefulPeriod } from "../organizations/service";

const DAY_MS = 86_400_000;

/** Whether backups may run for this account at `now` (the backup engine asks before each run). */
export function backupsAllowed(account: Pick<Account, "graceful">, now: Date): boolean {
  const { state, stopsAt } = account.graceful;
  if (state === "stopped") return false;
  if (state === "started" && stopsAt !== null && Date.parse(stopsAt) <= now.getTime()) return false;
  return true;
}

/** A failed payment: starts the period, or keeps the one already running (it is never extended). */
export function startGracefulPeriod(current: GracefulPeriod, now: Date, days: number): GracefulPeriod | null {
  if (current.state !== "none") return null;
  return {
    state: "started",
    startedAt: now.toISOString(),
    stopsAt: new Date(now.getTime() + days * DAY_MS).toISOString(),
  };
}

/** A successful payment: ends the period (and resumes stopped backups); null when there was none. */
export function resetGracefulPeriod(current: GracefulPeriod): GracefulPeriod | null {
  return current.state === "none" ? null : { state: "none", startedAt: null, stopsAt: null };
}

/** The period's end has passed: backups stop. Null while it runs or when there is none. */
export function stopGracefulPeriod(current: GracefulPeriod, now: Date): GracefulPeriod | null {
  if (current.state !== "started" || current.stopsAt === null) return null;
  if (Date.parse(current.stopsAt) > now.getTime()) return null;
  return { ...current, state: "stopped" };
}

/** "2026-12-06": the day backups stop, as the audit log and the alerts say it. */
export function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : "";
}

export const GRACEFUL_TEXTS = {
  startedObject: (stopsAt: string | null) => `Backups stop on ${day(stopsAt)} unless a payment succeeds`,
  startedAlert: (stopsAt: string | null) =>
    `A payment failed. Backups stop on ${day(stopsAt)} unless a payment succeeds.`,
  declinedAlert:
    "A payment was declined: nothing was bought, your subscription and backups are unchanged. Try again or use another payment method.",
  resetObject: "Payment received",
  resetAlert: "Payment received: the graceful period has ended and backups continue.",
  stoppedObject: "Graceful period ended without a payment",
  stoppedAlert: "Backups stopped: the graceful period ended without a payment. Pay to resume backups.",
} as const;
