/**
 * Builds the organisation and resource services from the runtime configuration, once per instance and
 * serving region (the global API serves none; each region's API serves that region's organisations).
 */
import type { RegionId } from "@alpvault/contracts/regions";
import { loadWorkspaceConfig, regionApiDomain, regionApiUrl } from "../config";
import { activeMailboxes, storedBackupBytes, syncResources } from "../resources/service";
import { workspaceGateway, type WorkspaceGateway } from "../workspace/gateway";
import { organizationService, type OrganizationService } from "./service";

export interface ProductServices {
  organizations: OrganizationService;
  workspace: WorkspaceGateway;
}

const built = new Map<RegionId | null, ProductServices>();

export function productServices(servingRegion: RegionId | null): ProductServices {
  const existing = built.get(servingRegion);
  if (existing) return existing;
  const workspace = workspaceGateway(loadWorkspaceConfig());
  const organizations = organizationService({
    workspace,
    servingRegion,
    regionDomain: regionApiDomain,
    regionApiUrl,
    syncResources: (organization, adminEmail) =>
      syncResources(workspace, organization, adminEmail, new Date(), adminEmail),
    usage: async (organization) => {
      const [storageBytes, mailboxes] = await Promise.all([
        storedBackupBytes(organization),
        activeMailboxes(organization),
      ]);
      return { storageBytes, activeMailboxes: mailboxes };
    },
  });
  const services = { organizations, workspace };
  built.set(servingRegion, services);
  return services;
}
