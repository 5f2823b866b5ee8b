import type { PlansResponse } from "@alpvault/contracts/billing";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useQuery } from "@tanstack/react-query";

export function decodePlans(value: unknown): PlansResponse {
  const v = (typeof value === "object" && value !== null ? value : {}) as Partial<PlansResponse>;
  if (
    Array.isArray(v.plans) &&
    v.plans.every((plan) => typeof plan.id === "string" && typeof plan.pricePerUserMonthlyUsd === "number") &&
    typeof v.storagePack?.bytes === "number" &&
    typeof v.storagePack.priceMonthlyUsd === "number"
  ) {
    return v as PlansResponse;
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `GET /v1/plans`: the three plans with their limits and prices, and the storage pack. */
export async function getPlans(signal?: AbortSignal): Promise<PlansResponse> {
  return decodePlans(await api.get<unknown>("/plans", { signal }));
}

export const plansKeys = { all: ["plans"] as const };

export function usePlans() {
  return useQuery({ queryKey: plansKeys.all, queryFn: ({ signal }) => getPlans(signal) });
}
