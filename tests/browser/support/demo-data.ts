/**
 * What browser tests that back up and recover demo resources share: the resource fields a backup writes
 * (which each file puts back), and the demo organisation's documents in its region database.
 */
import type { DocumentReference, Firestore } from "firebase-admin/firestore";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { withRegionDb } from "../../support/organizations";

/** The resource fields a backup writes. */
export const BACKUP_RESOURCE_FIELDS = [
  "policyId",
  "policyName",
  "protected",
  "nextBackupAt",
  "lastBackupAt",
  "mailBackupBytes",
  "driveBackupBytes",
  "calendarBackupBytes",
  "contactsBackupBytes",
  "mailItems",
  "driveItems",
  "calendarItems",
  "contactsItems",
  "backupCursor",
  "lastRun",
] as const;

/** Runs `body` with the organisation's region database and its document there. */
export function withOrganizationDb<T>(
  organization: OrganizationSummary,
  body: (db: Firestore, organizationRef: DocumentReference) => Promise<T>,
): Promise<T> {
  return withRegionDb(`region-${organization.subscriptions[0]?.region.id ?? "ch"}`, (db) =>
    body(db, db.collection("organizations").doc(organization.organizationId)),
  );
}
