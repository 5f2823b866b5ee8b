/** Re-syncs the region's organisations whose users, groups and shared drives were last read long ago. */
import type { RegionId } from "@alpvault/contracts/regions";
import * as logs from "../logs";
import { loadWorkspaceConfig } from "../config";
import { organizationsIn } from "../organizations/service";
import { resyncDueOrganizations } from "../resources/service";
import { workspaceGateway } from "../workspace/gateway";

export function resyncResources(regionId: RegionId, now: Date): Promise<{ synced: number; failed: number }> {
  return resyncDueOrganizations(
    workspaceGateway(loadWorkspaceConfig()),
    organizationsIn(regionId),
    now,
    (organizationId, error) => logs.resourceSyncFailed({ organizationId, error }),
  );
}
