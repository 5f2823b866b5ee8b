/**
 * The connecting sequence's calls (`SessionLoaders`) for component tests: the same calls as the app's own
 * (`app/provider.tsx`, which shared code cannot import), through the real API client to the fake API.
 */
import type {
  InstallationResponse,
  OrganizationDetails,
  RegionsResponse,
  SubscriptionView,
} from "@alpvault/contracts/organizations";
import { api, regionalBaseUrl } from "@/lib/api-client";
import type { SessionLoaders } from "@/lib/session";

export const testSessionLoaders: SessionLoaders = {
  installation: () => api.get<InstallationResponse>("/installation"),
  regions: async () => (await api.get<RegionsResponse>("/regions")).regions,
  organization: (organizationId) =>
    api.get<OrganizationDetails>(`/organizations/${encodeURIComponent(organizationId)}`),
  plan: async (organizationId, subscription) => {
    const { plan, seats } = await api.get<SubscriptionView>(
      `/organizations/${encodeURIComponent(organizationId)}/subscriptions/${encodeURIComponent(subscription.subscriptionId)}`,
      { baseUrl: regionalBaseUrl(subscription.region.domain), query: { fields: ["plan", "seats"] } },
    );
    if (!plan || !seats) throw new Error("The subscription answer lacks the plan or the seats");
    return { name: plan.name, maxUsers: seats.total };
  },
};
