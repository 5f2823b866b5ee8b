/** Starts the organisation's backups that are due, and enqueues its stranded runs again. */
import * as logs from "../logs";
import { dispatchOrganization } from "../backups/service";
import type { OrganizationJob } from "./job";

export const backupsJob: OrganizationJob = {
  async run(organization, now) {
    const dispatched = await dispatchOrganization(organization, now);
    return { backupsScheduled: dispatched.scheduled, backupsRedispatched: dispatched.redispatched };
  },
  failed: (organizationId, error) => logs.backupDispatchFailed({ organizationId, error }),
};
