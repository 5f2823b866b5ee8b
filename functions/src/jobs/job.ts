/**
 * A job of the region's scheduled dispatcher (jobs/dispatcher.ts) that runs once per organisation of the
 * region. It calls one domain's service and answers what it did as counts, which the dispatcher sums into
 * its log line. A job failing for one organisation is logged and does not stop the others.
 */
import type { Organization } from "../organizations/service";

export interface DispatchCounts {
  resynced: number;
  resyncFailed: number;
  backupsStopped: number;
  backupsScheduled: number;
  backupsRedispatched: number;
  drillsStarted: number;
  verificationsScheduled: number;
  chargesSent: number;
}

export const NO_DISPATCH: DispatchCounts = {
  resynced: 0,
  resyncFailed: 0,
  backupsStopped: 0,
  backupsScheduled: 0,
  backupsRedispatched: 0,
  drillsStarted: 0,
  verificationsScheduled: 0,
  chargesSent: 0,
};

export interface OrganizationJob {
  run(organization: Organization, now: Date): Promise<Partial<DispatchCounts>>;
  /** Logs a failure of the job for one organisation (and may count it). */
  failed(organizationId: string, error: unknown): Partial<DispatchCounts> | void;
}
