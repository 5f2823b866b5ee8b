/**
 * Builds the organisation and resource services from the runtime configuration, once per instance and
 * serving region (the global API serves none; each region's API serves that region's organisations).
 */
import type { RegionId } from "@alpvault/contracts/regions";
import { loadWorkspaceConfig, regionApiDomain, regionApiUrl } from "../config";
import { backupBytes, listResources, syncResources } from "../resources/service";
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
      const list = await listResources(organization);
      return {
        storageBytes: list.reduce((sum, resource) => sum + backupBytes(resource), 0),
        activeMailboxes: list.filter((resource) => resource.type === "email" && resource.status === "active")
          .length,
      };
    },
  });
  const services = { organizations, workspace };
  built.set(servingRegion, services);
  return services;
}
