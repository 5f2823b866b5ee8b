/**
 * Catalogs for the garbage collector's tests on the stack's Firestore: an organisation with a policy, items
 * written through the Firestore catalog, and versions made to look as written before they said when they
 * ended (`endedAt`).
 */
import { FieldPath, FieldValue, type Firestore } from "firebase-admin/firestore";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { FirestoreCatalog } from "../../functions/src/backups/catalog/repo";

export const DAY = 24 * 3600 * 1000;
export const T0 = Date.parse("2026-09-01T10:00:00.000Z");
export const REGION = "ch" as const;

/** A mail version as the catalog writes one (its search fields whole), captured at `at`. */
export function version(itemKey: string, versionKey: string, at: number): CatalogVersion {
  return {
    versionId: `${itemKey}@${versionKey}`,
    itemKey,
    kind: "gmail-message",
    versionKey,
    contentKey: `${itemKey}-${versionKey}`,
    capturedAt: new Date(at).toISOString(),
    runId: `run-${versionKey}`,
    size: 10,
    storedBytes: 10,
    contentDigest: "0".repeat(64),
    dataKeyId: "dk-1",
    metadata: {},
    search: {
      kind: "mail",
      subject: itemKey,
      fromName: "",
      fromEmail: "",
      to: [],
      date: new Date(at).toISOString(),
      labels: ["inbox"],
      size: 10,
      keywords: [],
    },
    formatVersion: 1,
    chunks: [{ id: `${itemKey}-${versionKey}`.padEnd(64, "0"), size: 10 }],
  } as CatalogVersion;
}

/** Items of one resource, each with versions captured at these times (one write call per 100 items). */
export async function writeItems(organizationId: string, resourceId: string, count: number, times: number[]) {
  const catalog = new FirestoreCatalog({ organizationId, regionId: REGION });
  for (let start = 0; start < count; start += 100) {
    const versions: CatalogVersion[] = [];
    for (let index = start; index < Math.min(count, start + 100); index += 1) {
      times.forEach((at, n) => versions.push(version(`m${String(index).padStart(5, "0")}`, `v${n}`, at)));
    }
    await catalog.writeVersions(resourceId, versions);
  }
}

/** An organisation with a policy (`p`) assigned to resource "kept", and resource "free" without one. */
export async function organizationWithPolicy(
  db: Firestore,
  organizationId: string,
  rule: { retentionDays: number; archiving: boolean },
) {
  const organization = db.collection("organizations").doc(organizationId);
  await organization
    .collection("policies")
    .doc("p")
    .set({ name: "Month", dataTypes: ["emails"], frequency: 1, schedule: "every-day", days: [], ...rule });
  await organization.collection("resources").doc("kept").set({ type: "email", name: "kept", policyId: "p" });
  await organization.collection("resources").doc("free").set({ type: "email", name: "free" });
  return organization;
}

/** Removes `endedAt` from every version of the first `count` items of a resource (in document order). */
export async function withoutEndings(
  db: Firestore,
  organizationId: string,
  resourceId: string,
  count: number,
): Promise<void> {
  const items = await db
    .collection(`organizations/${organizationId}/resources/${resourceId}/items`)
    .orderBy(FieldPath.documentId())
    .limit(count)
    .get();
  const batch = db.batch();
  for (const item of items.docs) {
    for (const version of (await item.ref.collection("versions").get()).docs) {
      batch.update(version.ref, { endedAt: FieldValue.delete() });
    }
  }
  await batch.commit();
}
