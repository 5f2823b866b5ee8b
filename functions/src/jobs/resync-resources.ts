/**
 * Re-syncs an organisation whose users, groups and shared drives were last read long ago, through its
 * set-up admin's delegation. A failure (the admin left, the app was uninstalled) is logged and does not stop
 * the organisation's other jobs.
 */
import * as logs from "../logs";
import { loadWorkspaceConfig } from "../config";
import { resyncIfDue } from "../resources/service";
import { workspaceGateway } from "../workspace/gateway";
import type { OrganizationJob } from "./job";

export const resyncJob: OrganizationJob = {
  async run(organization, now) {
    const synced = await resyncIfDue(workspaceGateway(loadWorkspaceConfig()), organization, now);
    return { resynced: synced ? 1 : 0 };
  },
  failed(organizationId, error) {
    logs.resourceSyncFailed({ organizationId, error });
    return { resyncFailed: 1 };
  },
};
