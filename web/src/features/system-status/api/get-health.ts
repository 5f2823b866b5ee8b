import { useCallback, useEffect, useState } from "react";
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

export type HealthState =
  { status: "loading" } | { status: "success"; data: HealthResponse } | { status: "error"; error: ApiError };

export function useHealth(): HealthState & { refetch: () => void } {
  const [state, setState] = useState<HealthState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: "loading" });
    getHealth(controller.signal).then(
      (data) => setState({ status: "success", data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          status: "error",
          error: error instanceof ApiError ? error : new ApiError(UNEXPECTED_ERROR),
        });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const refetch = useCallback(() => setAttempt((value) => value + 1), []);
  return { ...state, refetch };
}
