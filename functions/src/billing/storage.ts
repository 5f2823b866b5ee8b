/**
 * Storage at its maximum (docs/requirements.md "Storage at its maximum"). A backup that would start while
 * the organisation stores as much as its plan, seats and packs allow is refused "Storage full", unless
 * auto-add storage is on and the plan is a paid one (the free plan cannot add storage): then enough
 * 100 GB packs are added for what is stored, audited ("Storage packs added") and alerted, and the backup
 * goes on; the packs are charged to the plan's subscription (`charges.ts`).
 */
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { STORAGE_TEXTS } from "@alpvault/contracts/billing";
import { PLANS, STORAGE_PACK_BYTES, isPaidPlan, maximumStorageBytes } from "@alpvault/contracts/plans";
import type { Scope } from "../lib/tenancy";
import { seatsOf, type Account } from "../organizations/service";
import { changeAccount, type BillingChange } from "./changes";
import { storageCharge } from "./charges";

type StorageAccount = Pick<Account, "planId" | "seats" | "storagePacks" | "autoAddStorage">;

/** The most the account may store, in bytes. */
export function storageMaximum(account: Pick<Account, "planId" | "seats" | "storagePacks">): number {
  return maximumStorageBytes(PLANS[account.planId], seatsOf(account), account.storagePacks);
}

/**
 * What `usedBytes` stored changes in the account (pure: the caller writes it in one transaction): nothing
 * while under the maximum; at or over it with auto-add storage on a paid plan, the packs that bring the
 * maximum above what is stored. `full`: whether a backup must still be refused.
 */
export function decideStorage(
  account: StorageAccount,
  usedBytes: number,
): { change: BillingChange; full: boolean } {
  const maximum = storageMaximum(account);
  if (usedBytes < maximum) return { change: { audits: [], alerts: [] }, full: false };
  if (!account.autoAddStorage || !isPaidPlan(account.planId)) {
    return { change: { audits: [], alerts: [] }, full: true };
  }
  const added = Math.floor((usedBytes - maximum) / STORAGE_PACK_BYTES) + 1;
  const packs = account.storagePacks + added;
  return {
    full: false,
    change: {
      account: { storagePacks: packs },
      audits: [
        { operation: "storage-packs.added", object: STORAGE_TEXTS.addedObject(account.storagePacks, packs) },
      ],
      alerts: [STORAGE_TEXTS.addedAlert(added, packs)],
      charges: [storageCharge(added)],
    },
  };
}

/**
 * Whether a backup must be refused for want of storage, `usedBytes` being stored: adds packs first when
 * the account allows it (read again in the transaction, so packs another run added meanwhile count).
 */
export function storageFull(scope: Scope, usedBytes: number, now: Date): Promise<boolean> {
  return changeAccount(scope, SYSTEM_ACTOR, now, (account) => {
    const { change, full } = decideStorage(account, usedBytes);
    return { change, result: full };
  });
}
