/** A graceful period whose end has passed stops the organisation's backups (audited, with an alert). */
import * as logs from "../logs";
import { endGracefulPeriodIfOver } from "../billing/service";
import type { OrganizationJob } from "./job";

export const gracefulPeriodJob: OrganizationJob = {
  async run(organization, now) {
    const stopped = await endGracefulPeriodIfOver(organization, organization, now);
    return { backupsStopped: stopped ? 1 : 0 };
  },
  failed: (organizationId, error) => logs.gracefulStopFailed({ organizationId, error }),
};
