/** Graceful periods whose end has passed stop the region's backups (audited, with an alert). */
import type { RegionId } from "@alpvault/contracts/regions";
import * as logs from "../logs";
import { advanceGracefulPeriods } from "../billing/service";

export async function endGracefulPeriods(regionId: RegionId, now: Date): Promise<void> {
  const graceful = await advanceGracefulPeriods(
    now,
    (organizationId, error) => logs.gracefulStopFailed({ organizationId, error }),
    [regionId],
  );
  if (graceful.stopped > 0) logs.backupsStoppedAfterGracefulPeriod({ organizations: graceful.stopped });
}
