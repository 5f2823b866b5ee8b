/**
 * Organisations in the global database: `organizations/{id}` and the `domains/{domain}` claim that makes
 * one Workspace domain map to one organisation and one region, once.
 */
import { globalDb } from "../lib/firebase";
import { isRegionId, type RegionId } from "@alpvault/contracts/regions";
import type { PlanId } from "@alpvault/contracts/plans";

export interface Organization {
  organizationId: string;
  domain: string;
  regionId: RegionId;
  subscriptionId: string;
  planId: PlanId;
  /** Seats bought on paid plans (the free plan has its fixed seats). */
  seats: number;
  autoAddStorage: boolean;
  createdAt: string;
  createdBy: string;
  /** The super admin whose delegation the scheduled directory re-sync uses (the one who set it up). */
  adminEmail: string;
}

const PLAN_IDS: readonly string[] = ["matterhorn", "geneva", "zurich"];

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
  if (!isRegionId(value.regionId) || typeof value.planId !== "string" || !PLAN_IDS.includes(value.planId)) {
    return undefined;
  }
  return {
    organizationId: value.organizationId as string,
    domain: value.domain as string,
    regionId: value.regionId,
    subscriptionId: value.subscriptionId as string,
    planId: value.planId as PlanId,
    seats: typeof value.seats === "number" ? value.seats : 0,
    autoAddStorage: value.autoAddStorage === true,
    createdAt: value.createdAt as string,
    createdBy: value.createdBy as string,
    adminEmail: value.adminEmail as string,
  };
}

export async function getOrganization(organizationId: string): Promise<Organization | undefined> {
  const snapshot = await globalDb().collection("organizations").doc(organizationId).get();
  return snapshot.exists ? decodeOrganization(snapshot.data()) : undefined;
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
      if (existing) return { organization: existing, created: false };
    }
    transaction.set(claimRef, {
      organizationId: organization.organizationId,
      regionId: organization.regionId,
    });
    transaction.create(db.collection("organizations").doc(organization.organizationId), { ...organization });
    return { organization, created: true };
  });
}

/** Every organisation (the scheduled re-sync walks them; paged, so any number fits). */
export async function* allOrganizations(pageSize = 200): AsyncGenerator<Organization> {
  let last: string | undefined;
  for (;;) {
    let query = globalDb().collection("organizations").orderBy("organizationId").limit(pageSize);
    if (last) query = query.startAfter(last);
    const snapshot = await query.get();
    for (const doc of snapshot.docs) {
      const organization = decodeOrganization(doc.data());
      if (organization) yield organization;
    }
    if (snapshot.size < pageSize) return;
    last = snapshot.docs[snapshot.docs.length - 1]?.get("organizationId") as string;
  }
}
