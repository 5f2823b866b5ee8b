/**
 * A job of the region's scheduled dispatcher (jobs/dispatcher.ts) that runs once per organisation of the
 * region. It calls one domain's service and answers what it did as counts, which the dispatcher sums into
 * its log line. A job failing for one organisation is logged and does not stop the others.
 */
import type { Organization } from "../organizations/service";

export interface DispatchCounts {
  backupsScheduled: number;
  backupsRedispatched: number;
  drillsStarted: number;
  verificationsScheduled: number;
  chargesSent: number;
}

export interface OrganizationJob {
  run(organization: Organization, now: Date): Promise<Partial<DispatchCounts>>;
  /** Logs a failure of the job for one organisation. */
  failed(organizationId: string, error: unknown): void;
}
