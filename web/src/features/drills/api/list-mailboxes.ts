import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { skipToken, useQuery } from "@tanstack/react-query";

export interface Mailbox {
  resourceId: string;
  name: string;
  email: string;
}

/** `GET /v1/organizations/{id}/resources?type=email`: the active mailboxes a drill can restore into. */
export async function listMailboxes(organizationId: string, signal?: AbortSignal): Promise<Mailbox[]> {
  const answer = (await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/resources`, {
    query: { type: "email", pageSize: 100, sort: "name" },
    signal,
  })) as { resources?: unknown };
  if (!Array.isArray(answer.resources)) throw new ApiError(UNEXPECTED_ERROR);
  return answer.resources.flatMap((value: unknown) => {
    const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    return typeof v.resourceId === "string" &&
      typeof v.name === "string" &&
      typeof v.email === "string" &&
      v.status === "active"
      ? [{ resourceId: v.resourceId, name: v.name, email: v.email }]
      : [];
  });
}

export const mailboxesKeys = {
  all: (organizationId: string | null) => ["mailboxes", organizationId] as const,
};

export function useMailboxes(organizationId: string | null) {
  return useQuery({
    queryKey: mailboxesKeys.all(organizationId),
    queryFn: organizationId ? ({ signal }) => listMailboxes(organizationId, signal) : skipToken,
  });
}
