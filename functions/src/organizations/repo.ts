/**
 * Organisations. The global database routes: `organizations/{id}` (domain, region, subscription id,
 * creation) and the `domains/{domain}` claim that makes one Workspace domain map to one organisation and
 * one region, once. The organisation's account state (plan, seats, storage packs, settings) lives in its
 * region database (`account` on `organizations/{id}` there, see lib/tenancy.ts), so a billing change and
 * its audit entry are one transaction.
 */
import type { Transaction } from "firebase-admin/firestore";
import { globalDb, regionDb } from "../lib/firebase";
import { organizationRef, type Scope } from "../lib/tenancy";
import { isRegionId, regionDatabaseId, type RegionId } from "@alpvault/contracts/regions";
import { FREE_PLAN, PLANS, isPlanId, type PlanId } from "@alpvault/contracts/plans";

/**
 * The graceful period after a failed payment: `started` when a payment fails (backups go on until
 * `stopsAt`), `stopped` once that passed (backups stop), back to `none` when a payment succeeds.
 */
export interface GracefulPeriod {
  state: "none" | "started" | "stopped";
  /** ISO date-times; null in state `none`. */
  startedAt: string | null;
  stopsAt: string | null;
}

export const NO_GRACEFUL_PERIOD: GracefulPeriod = { state: "none", startedAt: null, stopsAt: null };

/**
 * Active mailboxes beyond the seats, as the last directory sync saw them: `since` the count was first
 * exceeded (null: the seats cover every mailbox), and the mailboxes beyond it, those added last first.
 */
export interface SeatOverageState {
  since: string | null;
  unseated: { resourceId: string; email: string | null }[];
}

export const NO_SEAT_OVERAGE: SeatOverageState = { since: null, unseated: [] };

/** What the organisation has bought and set (region database). */
export interface Account {
  planId: PlanId;
  /** Seats bought on paid plans (the free plan has its fixed seats). */
  seats: number;
  /** Extra storage bought, in packs (docs/requirements.md#constants-and-limits: 100 GB each). */
  storagePacks: number;
  autoAddStorage: boolean;
  autoAddSeats: boolean;
  seatOverage: SeatOverageState;
  graceful: GracefulPeriod;
  /**
   * The payment provider's subscription of the plan bought last (Stripe `sub_…`): where automatic
   * additions of seats and storage packs are billed. None until a plan is bought through a checkout.
   */
  billingSubscriptionId: string | null;
  /** When that subscription was kept (its plan paid): seat charges recorded before are covered by it. */
  billingSubscriptionSince: string | null;
  /**
   * Subscriptions of plans bought before the current one, still to be cancelled at the provider (a new
   * plan's checkout starts a new subscription; the old one must stop billing).
   */
  replacedSubscriptions: string[];
}

export interface Organization extends Account {
  organizationId: string;
  domain: string;
  regionId: RegionId;
  subscriptionId: string;
  createdAt: string;
  createdBy: string;
  /** The super admin whose delegation the scheduled directory re-sync uses (the one who set it up). */
  adminEmail: string;
}

/** A new organisation's account: the free plan with its fixed seats. */
export const INITIAL_ACCOUNT: Account = {
  planId: FREE_PLAN,
  seats: PLANS[FREE_PLAN].maxUsers ?? 0,
  storagePacks: 0,
  autoAddStorage: false,
  autoAddSeats: false,
  seatOverage: NO_SEAT_OVERAGE,
  graceful: NO_GRACEFUL_PERIOD,
  billingSubscriptionId: null,
  billingSubscriptionSince: null,
  replacedSubscriptions: [],
};

/** The seats the account has: the free plan's fixed count, else those bought. */
export function seatsOf(account: Pick<Account, "planId" | "seats">): number {
  return PLANS[account.planId].maxUsers ?? account.seats;
}

/** Decodes a stored seat overage; anything missing or malformed reads as none. */
export function decodeSeatOverage(data: unknown): SeatOverageState {
  const value = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  if (typeof value.since !== "string" || Number.isNaN(Date.parse(value.since))) return NO_SEAT_OVERAGE;
  const unseated = (Array.isArray(value.unseated) ? value.unseated : []).flatMap((entry: unknown) => {
    const item = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof item.resourceId !== "string") return [];
    return [{ resourceId: item.resourceId, email: typeof item.email === "string" ? item.email : null }];
  });
  return { since: value.since, unseated };
}

/** Decodes a stored graceful period; anything missing or malformed reads as none. */
export function decodeGracefulPeriod(data: unknown): GracefulPeriod {
  const value = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const date = (field: unknown) =>
    typeof field === "string" && !Number.isNaN(Date.parse(field)) ? field : null;
  const state = value.state;
  if ((state === "started" || state === "stopped") && date(value.stopsAt) !== null) {
    return { state, startedAt: date(value.startedAt), stopsAt: date(value.stopsAt) };
  }
  return NO_GRACEFUL_PERIOD;
}

/** Decodes stored account state; anything missing or malformed reads as the initial account. */
export function decodeAccount(data: unknown): Account {
  const value = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const whole = (field: unknown, fallback: number) =>
    typeof field === "number" && Number.isInteger(field) && field >= 0 ? field : fallback;
  return {
    planId: isPlanId(value.planId) ? value.planId : INITIAL_ACCOUNT.planId,
    seats: whole(value.seats, INITIAL_ACCOUNT.seats),
    storagePacks: whole(value.storagePacks, 0),
    autoAddStorage: value.autoAddStorage === true,
    autoAddSeats: value.autoAddSeats === true,
    seatOverage: decodeSeatOverage(value.seatOverage),
    graceful: decodeGracefulPeriod(value.graceful),
    billingSubscriptionId:
      typeof value.billingSubscriptionId === "string" && value.billingSubscriptionId !== ""
        ? value.billingSubscriptionId
        : null,
    billingSubscriptionSince:
      typeof value.billingSubscriptionSince === "string" ? value.billingSubscriptionSince : null,
    replacedSubscriptions: Array.isArray(value.replacedSubscriptions)
      ? value.replacedSubscriptions.filter((id): id is string => typeof id === "string" && id !== "")
      : [],
  };
}

/** Decodes a stored organisation, refusing documents that do not have the shape we write. */
export function decodeOrganization(data: unknown): Organization | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const value = data as Record<string, unknown>;
  const strings = [
    "organizationId",
    "domain",
    "subscriptionId",
    "createdAt",
    "createdBy",
    "adminEmail",
  ] as const;
  if (!strings.every((key) => typeof value[key] === "string")) return undefined;
  if (!isRegionId(value.regionId)) return undefined;
  return {
    organizationId: value.organizationId as string,
    domain: value.domain as string,
    regionId: value.regionId,
    subscriptionId: value.subscriptionId as string,
    ...decodeAccount(value),
    createdAt: value.createdAt as string,
    createdBy: value.createdBy as string,
    adminEmail: value.adminEmail as string,
  };
}

/** The account in the region database, read inside `transaction` when one is given. */
export async function readAccount(scope: Scope, transaction?: Transaction): Promise<Account> {
  const ref = organizationRef(scope);
  const snapshot = transaction ? await transaction.get(ref) : await ref.get();
  return decodeAccount(snapshot.get("account"));
}

/** Writes account fields inside `transaction` (the caller records the audit entry in the same one). */
export function writeAccount(transaction: Transaction, scope: Scope, account: Partial<Account>): void {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(account)) fields[`account.${key}`] = value;
  transaction.set(organizationRef(scope), { account: account }, { mergeFields: Object.keys(fields) });
}

/** The organisation with its account, read from its region database. */
export async function withAccount(routing: Organization): Promise<Organization> {
  return { ...routing, ...(await readAccount(routing)) };
}

/**
 * The organisation as the global database routes it (domain, region, subscription id), without reading its
 * region: its account fields are the defaults until `withAccount` reads them.
 */
export async function getRouting(organizationId: string): Promise<Organization | undefined> {
  const snapshot = await globalDb().collection("organizations").doc(organizationId).get();
  return snapshot.exists ? decodeOrganization(snapshot.data()) : undefined;
}

/**
 * The organisation, when it exists and (given `servingRegion`) belongs to that region: a region's workers
 * never read or process another region's organisation, whatever a task says.
 */
export async function organizationServedIn(
  organizationId: string,
  servingRegion: RegionId | undefined,
): Promise<Organization | undefined> {
  const routing = await getRouting(organizationId);
  if (!routing || (servingRegion !== undefined && routing.regionId !== servingRegion)) return undefined;
  return withAccount(routing);
}

export async function getOrganization(organizationId: string): Promise<Organization | undefined> {
  const routing = await getRouting(organizationId);
  return routing ? withAccount(routing) : undefined;
}

export async function organizationOfDomain(domain: string): Promise<Organization | undefined> {
  const claim = await globalDb().collection("domains").doc(domain).get();
  const organizationId: unknown = claim.get("organizationId");
  return typeof organizationId === "string" ? getOrganization(organizationId) : undefined;
}

/**
 * Creates the domain's organisation, or returns the one it already has. In one transaction, so two
 * concurrent set-ups of the same domain end with one organisation.
 */
export async function claimDomain(
  organization: Organization,
): Promise<{ organization: Organization; created: boolean }> {
  const db = globalDb();
  const claimRef = db.collection("domains").doc(organization.domain);
  return db.runTransaction(async (transaction) => {
    const claim = await transaction.get(claimRef);
    const existingId: unknown = claim.get("organizationId");
    if (typeof existingId === "string") {
      const existing = decodeOrganization(
        (await transaction.get(db.collection("organizations").doc(existingId))).data(),
      );
      if (existing) return { organization: await withAccount(existing), created: false };
    }
    transaction.set(claimRef, {
      organizationId: organization.organizationId,
      regionId: organization.regionId,
    });
    const {
      planId: _planId,
      seats: _seats,
      storagePacks: _packs,
      autoAddStorage: _auto,
      autoAddSeats: _autoSeats,
      seatOverage: _overage,
      graceful: _graceful,
      billingSubscriptionId: _billingSubscription,
      billingSubscriptionSince: _billingSince,
      replacedSubscriptions: _replaced,
      ...routing
    } = organization;
    transaction.create(db.collection("organizations").doc(organization.organizationId), routing);
    return { organization, created: true };
  });
}

/**
 * Gives a new organisation its initial account in its region database (idempotent: an account already
 * there is kept, so a retried set-up never resets a plan).
 */
export async function ensureAccount(scope: Scope): Promise<void> {
  const ref = organizationRef(scope);
  await ref.firestore.runTransaction(async (transaction) => {
    const snapshot = await transaction.get(ref);
    if (snapshot.get("account") === undefined) {
      transaction.set(
        ref,
        { account: INITIAL_ACCOUNT, organizationId: scope.organizationId },
        { merge: true },
      );
    }
  });
}

/** Every organisation of one region (its dispatcher walks them; paged, so any number fits). */
export async function* organizationsIn(regionId: RegionId, pageSize = 200): AsyncGenerator<Organization> {
  let last: string | undefined;
  for (;;) {
    let query = globalDb()
      .collection("organizations")
      .where("regionId", "==", regionId)
      .orderBy("organizationId")
      .limit(pageSize);
    if (last) query = query.startAfter(last);
    const snapshot = await query.get();
    for (const doc of snapshot.docs) {
      const organization = decodeOrganization(doc.data());
      if (organization) yield await withAccount(organization);
    }
    if (snapshot.size < pageSize) return;
    last = snapshot.docs[snapshot.docs.length - 1]?.get("organizationId") as string;
  }
}
