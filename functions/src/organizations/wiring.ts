/** Builds the organisation and resource services from the runtime configuration, once per instance. */
import { loadWorkspaceConfig, regionApiDomain } from "../config";
import * as resources from "../resources/repo";
import { backupBytes, syncResources } from "../resources/service";
import { workspaceGateway, type WorkspaceGateway } from "../workspace/gateway";
import { organizationService, type OrganizationService } from "./service";

let built: { organizations: OrganizationService; workspace: WorkspaceGateway } | undefined;

export function productServices(): { organizations: OrganizationService; workspace: WorkspaceGateway } {
  if (built) return built;
  const workspace = workspaceGateway(loadWorkspaceConfig());
  const organizations = organizationService({
    workspace,
    regionDomain: regionApiDomain,
    syncResources: (organization, adminEmail) =>
      syncResources(workspace, organization, adminEmail, new Date(), adminEmail),
    usage: async (organization) => {
      const list = await resources.listResources(organization);
      return {
        storageBytes: list.reduce((sum, resource) => sum + backupBytes(resource), 0),
        activeMailboxes: list.filter((resource) => resource.type === "email" && resource.status === "active")
          .length,
      };
    },
  });
  built = { organizations, workspace };
  return built;
}
