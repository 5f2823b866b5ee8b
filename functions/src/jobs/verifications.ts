/** Integrity verification, once a day per organisation (and its runs nobody works on). */
import * as logs from "../logs";
import { dispatchVerification } from "../backups/verify/service";
import type { OrganizationJob } from "./job";

export const verificationsJob: OrganizationJob = {
  async run(organization, now) {
    const verify = await dispatchVerification(organization, now);
    return { verificationsScheduled: verify.scheduled };
  },
  failed: (organizationId, error) => logs.backupDispatchFailed({ organizationId, error }),
};
