import { useQuery } from "@tanstack/react-query";
import type { HealthResponse } from "@alpvault/contracts/health";
import { healthResponseSchema } from "@alpvault/contracts/schemas/health";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** `GET /v1/health`: the API is up, its database answers, and who is calling. */
export async function getHealth(signal?: AbortSignal): Promise<HealthResponse> {
  return decodeAnswer(healthResponseSchema, await api.get<unknown>("/health", { signal }));
}

export const healthKeys = { all: ["health"] as const };

export function useHealth() {
  return useQuery({ queryKey: healthKeys.all, queryFn: ({ signal }) => getHealth(signal) });
}
