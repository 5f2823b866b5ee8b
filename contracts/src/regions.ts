/**
 * Backup regions (data residency). An organisation's data lives in its region's Firestore database and
 * bucket and is served by that region's API host. The list is configuration; the API domain of each
 * region comes from the deployment (locally every region is served by the same host).
 */
export interface Region {
  /** Stable id, stored on the organisation. */
  id: string;
  label: string;
  /** Google Cloud location of the region's database, bucket and functions. */
  location: string;
  /** Host serving this region's API (`https://<domain>/v1`). */
  domain: string;
}

export const REGION_IDS = ["ch", "eu", "us"] as const;
export type RegionId = (typeof REGION_IDS)[number];

export const REGIONS: readonly Omit<Region, "domain">[] = [
  { id: "ch", label: "Switzerland", location: "europe-west6" },
  { id: "eu", label: "European Union", location: "europe-west1" },
  { id: "us", label: "United States", location: "us-central1" },
];

export function isRegionId(value: unknown): value is RegionId {
  return typeof value === "string" && (REGION_IDS as readonly string[]).includes(value);
}

/** The Google Cloud location of a region (its database, bucket, functions and queues). */
export function regionLocation(regionId: RegionId): string {
  return (REGIONS.find((region) => region.id === regionId) as Omit<Region, "domain">).location;
}

/** Firestore database id holding one region's organisation data. */
export function regionDatabaseId(regionId: RegionId): string {
  return `region-${regionId}`;
}
