/**
 * Where one organisation's data lives: its region's Firestore database, under `organizations/{id}`. The
 * global database only routes (domain → organisation → region); everything else — account and billing
 * state, resources, policies, secrets, audit logs — is in the region, so it can change together in one
 * transaction with the audit entry that records it.
 */
import type { DocumentReference, Firestore } from "firebase-admin/firestore";
import { regionDatabaseId, type RegionId } from "@alpvault/contracts/regions";
import { regionDb } from "./firebase";

/**
 * A transaction of the organisation's region database, as a service hands it from one repository to the
 * next when a change spans modules (the service never reads or writes through it itself).
 */
export type { Transaction } from "firebase-admin/firestore";

export interface Scope {
  organizationId: string;
  regionId: RegionId;
}

/** The organisation's region database. */
export function tenantDb(scope: Scope): Firestore {
  return regionDb(regionDatabaseId(scope.regionId));
}

/** The organisation's document in its region database (parent of all its collections). */
export function organizationRef(scope: Scope): DocumentReference {
  return tenantDb(scope).collection("organizations").doc(scope.organizationId);
}
