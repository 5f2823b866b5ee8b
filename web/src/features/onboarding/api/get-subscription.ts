import type {
  SubscriptionField,
  SubscriptionReference,
  SubscriptionView,
} from "@alpvault/contracts/organizations";
import { api, regionalBaseUrl } from "@/lib/api-client";

/**
 * GET /v1/organizations/{organizationId}/subscriptions/{subscriptionId} (docs/requirements.md#calls-the-web-makes): plan data, sent to the
 * subscription region's host; `fields` go as repeated query keys.
 */
export function getSubscription(
  organizationId: string,
  subscription: SubscriptionReference,
  fields: readonly SubscriptionField[] = [],
): Promise<SubscriptionView> {
  return api.get<SubscriptionView>(
    `/organizations/${encodeURIComponent(organizationId)}/subscriptions/${encodeURIComponent(subscription.subscriptionId)}`,
    { baseUrl: regionalBaseUrl(subscription.region.domain), query: { fields } },
  );
}
