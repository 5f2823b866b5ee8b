/** Deletes the organisation's exports whose week is over (their files and their records). */
import * as logs from "../logs";
import { deleteExpiredExports } from "../export/jobs";
import { exportStorage } from "../export/task";
import type { OrganizationJob } from "./job";

export const expiredExportsJob: OrganizationJob = {
  async run(organization, now) {
    await deleteExpiredExports(organization, exportStorage, now);
    return {};
  },
  failed: (organizationId, error) => logs.backupDispatchFailed({ organizationId, error }),
};
