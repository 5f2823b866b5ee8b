import type { SubscriptionDetails, SubscriptionReference } from "@alpvault/contracts/organizations";
import { subscriptionDetailsSchema } from "@alpvault/contracts/schemas/organizations";
import { api, regionalBaseUrl } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

/**
 * `GET /v1/organizations/{id}/subscriptions/{subscriptionId}` (docs/requirements.md#calls-the-web-makes), on the subscription region's host:
 * plan, renewal date, seats, storage and the auto-add-storage setting.
 */
export async function getSubscription(
  organizationId: string,
  subscription: SubscriptionReference,
  signal?: AbortSignal,
): Promise<SubscriptionDetails> {
  return decodeAnswer(
    subscriptionDetailsSchema,
    await api.get<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/subscriptions/${encodeURIComponent(subscription.subscriptionId)}`,
      { baseUrl: regionalBaseUrl(subscription.region.domain), signal },
    ),
  );
}

/** The query keys of an organisation's subscription (a purchase invalidates them). */
export const subscriptionKeys = {
  all: (organizationId: string | null) => ["subscription", organizationId] as const,
  one: (organizationId: string | null, subscriptionId: string | null) =>
    [...subscriptionKeys.all(organizationId), subscriptionId] as const,
};

export function useSubscription(organizationId: string | null, subscription: SubscriptionReference | null) {
  return useQuery({
    queryKey: subscriptionKeys.one(organizationId, subscription?.subscriptionId ?? null),
    queryFn:
      organizationId && subscription
        ? ({ signal }) => getSubscription(organizationId, subscription, signal)
        : skipToken,
    placeholderData: keepPreviousData,
  });
}
