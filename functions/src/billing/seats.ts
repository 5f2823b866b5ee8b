/**
 * Seats over the count (docs/requirements.md "Seats over the count"). Each directory sync compares the
 * active mailboxes with the seats:
 * - covered: any recorded overage ends;
 * - over on a paid plan with auto-add seats on: the seats are raised to the mailboxes (audited, alerted,
 *   and charged to the plan's subscription: `charges.ts`);
 * - over otherwise: the overage is recorded once (audited, alerted) with the mailboxes beyond the count,
 *   those added last. Every mailbox is still backed up for SEAT_GRACE_DAYS; from then, a backup of a
 *   mailbox beyond the count is refused until seats are added (the check counts the mailboxes again, so
 *   seats bought meanwhile count at once).
 */
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { SEAT_TEXTS } from "@alpvault/contracts/billing";
import { seatStopsAt, type SyncedMailbox } from "@alpvault/contracts/organizations";
import { isPaidPlan } from "@alpvault/contracts/plans";
import type { Scope } from "../lib/tenancy";
import { NO_SEAT_OVERAGE, seatsOf, type Account, type SeatOverageState } from "../organizations/service";
import { changeAccount, type BillingChange } from "./changes";
import { seatCharge } from "./charges";

/** The most mailboxes beyond the count the account keeps (the refusal checks only these). */
const UNSEATED_KEPT = 2_000;

/** What a sync's mailboxes change in the account (pure: the caller writes it in one transaction). */
export function decideSeats(account: Account, mailboxes: readonly SyncedMailbox[], now: Date): BillingChange {
  const seats = seatsOf(account);
  const used = mailboxes.length;
  const over = used - seats;
  if (over <= 0) {
    return account.seatOverage.since
      ? { account: { seatOverage: NO_SEAT_OVERAGE }, audits: [], alerts: [] }
      : { audits: [], alerts: [] };
  }
  if (account.autoAddSeats && isPaidPlan(account.planId)) {
    return {
      account: { seats: used, seatOverage: NO_SEAT_OVERAGE },
      audits: [{ operation: "seats.added", object: SEAT_TEXTS.addedObject(seats, used) }],
      alerts: [SEAT_TEXTS.addedAlert(over, used)],
      charges: [seatCharge(account.planId, over)],
    };
  }
  // Those added last are beyond the count (ties by address, so every sync names the same ones).
  const unseated = [...mailboxes]
    .sort(
      (a, b) => b.discoveredAt.localeCompare(a.discoveredAt) || (b.email ?? "").localeCompare(a.email ?? ""),
    )
    .slice(0, Math.min(over, UNSEATED_KEPT))
    .map(({ resourceId, email }) => ({ resourceId, email }));
  const since = account.seatOverage.since ?? now.toISOString();
  const seatOverage: SeatOverageState = { since, unseated };
  if (account.seatOverage.since) return { account: { seatOverage }, audits: [], alerts: [] };
  return {
    account: { seatOverage },
    audits: [{ operation: "seats.exceeded", object: SEAT_TEXTS.exceededObject(used, seats) }],
    alerts: [SEAT_TEXTS.exceededAlert(over, seatStopsAt(since))],
  };
}

/** Applies a sync's mailboxes to the account's seats, in one audited transaction. */
export function reviewSeats(scope: Scope, mailboxes: readonly SyncedMailbox[], now: Date): Promise<void> {
  return changeAccount(scope, SYSTEM_ACTOR, now, (account) => ({
    change: decideSeats(account, mailboxes, now),
    result: undefined,
  }));
}

/**
 * Whether a backup of this resource is refused for want of a seat: the grace is over, the mailboxes still
 * outnumber the seats, and it is one of those beyond the count.
 */
export async function beyondSeats(
  account: Account,
  resourceId: string,
  activeMailboxes: () => Promise<number>,
  now: Date,
): Promise<boolean> {
  const { since, unseated } = account.seatOverage;
  if (!since || now < seatStopsAt(since)) return false;
  const position = unseated.findIndex((entry) => entry.resourceId === resourceId);
  if (position < 0) return false;
  // Those added last are listed first: the resource is beyond the count while fewer seats than it needs.
  return position < (await activeMailboxes()) - seatsOf(account);
}
