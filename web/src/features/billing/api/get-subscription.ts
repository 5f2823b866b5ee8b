import type { SubscriptionDetails, SubscriptionReference } from "@alpvault/contracts/organizations";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError, regionalBaseUrl } from "@/lib/api-client";
import { useApiQuery } from "@/lib/use-api-query";

export function decodeSubscription(value: unknown): SubscriptionDetails {
  const v = (typeof value === "object" && value !== null ? value : {}) as Partial<SubscriptionDetails>;
  if (
    typeof v.subscriptionId === "string" &&
    typeof v.plan?.id === "string" &&
    typeof v.renewalDate === "string" &&
    typeof v.seats?.used === "number" &&
    typeof v.storage?.used === "number" &&
    typeof v.storage.maximum === "number" &&
    typeof v.autoAddStorage === "boolean"
  ) {
    return v as SubscriptionDetails;
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/**
 * `GET /v1/organizations/{id}/subscriptions/{subscriptionId}` (spec §7), on the subscription region's host:
 * plan, renewal date, seats, storage and the auto-add-storage setting.
 */
export async function getSubscription(
  organizationId: string,
  subscription: SubscriptionReference,
  signal?: AbortSignal,
): Promise<SubscriptionDetails> {
  return decodeSubscription(
    await api.get<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/subscriptions/${encodeURIComponent(subscription.subscriptionId)}`,
      { baseUrl: regionalBaseUrl(subscription.region.domain), signal },
    ),
  );
}

/** `version` changes force a reload (after a purchase or a setting change). */
export function useSubscription(
  organizationId: string | null,
  subscription: SubscriptionReference | null,
  version = 0,
) {
  return useApiQuery(
    organizationId && subscription ? `${organizationId}:${subscription.subscriptionId}:${version}` : null,
    (signal) => getSubscription(organizationId as string, subscription as SubscriptionReference, signal),
  );
}
