import type { PlansResponse } from "@alpvault/contracts/billing";
import { plansResponseSchema } from "@alpvault/contracts/schemas/billing";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useQuery } from "@tanstack/react-query";

/** `GET /v1/plans`: the three plans with their limits and prices, and the storage pack. */
export async function getPlans(signal?: AbortSignal): Promise<PlansResponse> {
  return decodeAnswer(plansResponseSchema, await api.get<unknown>("/plans", { signal }));
}

export const plansKeys = { all: ["plans"] as const };

export function usePlans() {
  return useQuery({ queryKey: plansKeys.all, queryFn: ({ signal }) => getPlans(signal) });
}
