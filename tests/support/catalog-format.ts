/**
 * An organisation's catalog format (docs/backup-format.md §9.6): `meta/catalog` says which format its new
 * backups are written in. The migration's start writes it; a test that backs up in version 2 from the
 * first run writes it before the first backup.
 */
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { withRegionDb } from "./organizations";

export async function useCatalogFormat2(organization: OrganizationSummary): Promise<void> {
  const regionId = organization.subscriptions[0]?.region.id ?? "ch";
  await withRegionDb(`region-${regionId}`, async (db) => {
    await db
      .collection("organizations")
      .doc(organization.organizationId)
      .collection("meta")
      .doc("catalog")
      .set({ format: 2, since: new Date().toISOString() });
  });
}
