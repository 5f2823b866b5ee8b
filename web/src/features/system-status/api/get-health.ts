import { useQuery } from "@tanstack/react-query";
import type { HealthResponse } from "@alpvault/contracts/health";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";

function decodeHealth(value: unknown): HealthResponse {
  const candidate = value as Partial<HealthResponse> | null;
  if (
    typeof candidate === "object" &&
    candidate !== null &&
    candidate.status === "ok" &&
    typeof candidate.version === "string" &&
    typeof candidate.user === "object" &&
    candidate.user !== null &&
    typeof candidate.user.uid === "string"
  ) {
    return {
      status: "ok",
      version: candidate.version,
      user: {
        uid: candidate.user.uid,
        email: typeof candidate.user.email === "string" ? candidate.user.email : null,
      },
    };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `GET /v1/health`: the API is up, its database answers, and who is calling. */
export async function getHealth(signal?: AbortSignal): Promise<HealthResponse> {
  return decodeHealth(await api.get<unknown>("/health", { signal }));
}

export const healthKeys = { all: ["health"] as const };

export function useHealth() {
  return useQuery({ queryKey: healthKeys.all, queryFn: ({ signal }) => getHealth(signal) });
}
