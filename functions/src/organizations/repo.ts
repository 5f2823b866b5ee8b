/**
 * Organisations. The global database routes: `organizations/{id}` (domain, region, subscription id,
 * creation) and the `domains/{domain}` claim that makes one Workspace domain map to one organisation and
 * one region, once. The organisation's account state (plan, seats, storage packs, settings) lives in its
 * region database (`account` on `organizations/{id}` there, see lib/tenancy.ts), so a billing change and
 * its audit entry are one transaction.
 */
import type { Transaction } from "firebase-admin/firestore";
import { globalDb } from "../lib/firebase";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeDocument, readableDocuments } from "../lib/stored";
import type { RegionId } from "@alpvault/contracts/regions";
import { PLANS } from "@alpvault/contracts/plans";
import {
  DOMAIN_CLAIM,
  INITIAL_ACCOUNT,
  ORGANIZATION_ACCOUNT,
  ORGANIZATION_ROUTING,
  type Account,
  type Organization,
  type OrganizationRouting,
} from "./documents";

export {
  INITIAL_ACCOUNT,
  NO_GRACEFUL_PERIOD,
  NO_SEAT_OVERAGE,
  type Account,
  type GracefulPeriod,
  type Organization,
  type SeatOverageState,
} from "./documents";

/** An organisation as the global database routes it, its account fields the defaults. */
function routed(routing: OrganizationRouting): Organization {
  return { ...INITIAL_ACCOUNT, ...routing };
}

/** The seats the account has: the free plan's fixed count, else those bought. */
export function seatsOf(account: Pick<Account, "planId" | "seats">): number {
  return PLANS[account.planId].maxUsers ?? account.seats;
}

/** The account in the region database, read inside `transaction` when one is given. */
export async function readAccount(scope: Scope, transaction?: Transaction): Promise<Account> {
  const ref = organizationRef(scope);
  const snapshot = transaction ? await transaction.get(ref) : await ref.get();
  return decodeDocument(ORGANIZATION_ACCOUNT, snapshot)?.account ?? INITIAL_ACCOUNT;
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
  const routing = decodeDocument(
    ORGANIZATION_ROUTING,
    await globalDb().collection("organizations").doc(organizationId).get(),
  );
  return routing && routed(routing);
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
  const claim = decodeDocument(DOMAIN_CLAIM, await globalDb().collection("domains").doc(domain).get());
  return claim ? getOrganization(claim.organizationId) : undefined;
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
    const claim = decodeDocument(DOMAIN_CLAIM, await transaction.get(claimRef));
    if (claim) {
      const existing = decodeDocument(
        ORGANIZATION_ROUTING,
        await transaction.get(db.collection("organizations").doc(claim.organizationId)),
      );
      if (existing) return { organization: await withAccount(routed(existing)), created: false };
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
    if (decodeDocument(ORGANIZATION_ACCOUNT, await transaction.get(ref))?.account === undefined) {
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
    const organizations = readableDocuments(ORGANIZATION_ROUTING, snapshot.docs);
    for (const organization of organizations) yield await withAccount(routed(organization));
    if (snapshot.size < pageSize) return;
    last = snapshot.docs[snapshot.docs.length - 1]?.id;
  }
}
