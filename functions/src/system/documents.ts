/**
 * The system module's stored documents in the global database, one schema each (lib/stored.ts):
 * `system/dispatcher` (the dispatchers' runs, in total and per region) and `googleQuotaDays/{api}-{day}`
 * (the units the project spent of a Google API on a quota day). Both are written by increments, field by
 * field (`repo.ts`): a count not written yet reads as zero. (`system/health` is only ever read to see
 * that the database answers.)
 */
import { z } from "zod/mini";
import { REGION_IDS, type RegionId } from "@alpvault/contracts/regions";
import { storedKind } from "../lib/stored";

const count = z._default(z.number(), 0);

/** The dispatchers' runs: in total, and each region's count and last run. */
export interface StoredDispatcherRuns {
  runs: number;
  regions: Partial<Record<RegionId, { runs: number }>>;
}

/** `system/dispatcher`. */
export const DISPATCHER_RUNS = storedKind<StoredDispatcherRuns>(
  "dispatcher runs",
  z.object({
    runs: count,
    regions: z._default(z.partialRecord(z.enum(REGION_IDS), z.object({ runs: count })), {}),
  }),
);

/** `googleQuotaDays/{api}-{day}`. */
export const GOOGLE_QUOTA_DAY = storedKind<{ units: number }>("Google quota day", z.object({ units: count }));
