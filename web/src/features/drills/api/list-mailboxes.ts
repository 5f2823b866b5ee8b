import { resourcesPageSchema } from "@alpvault/contracts/schemas/organizations";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { skipToken, useQuery } from "@tanstack/react-query";

export interface Mailbox {
  resourceId: string;
  name: string;
  email: string;
}

/** `GET /v1/organizations/{id}/resources?type=email`: the active mailboxes a drill can restore into. */
export async function listMailboxes(organizationId: string, signal?: AbortSignal): Promise<Mailbox[]> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/resources`, {
    query: { type: "email", pageSize: 100, sort: "name" },
    signal,
  });
  return decodeAnswer(resourcesPageSchema, answer).resources.flatMap(({ resourceId, name, email, status }) =>
    email !== null && status === "active" ? [{ resourceId, name, email }] : [],
  );
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
