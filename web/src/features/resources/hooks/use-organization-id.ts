import { useSession } from "@/lib/session";

/** The current organisation of the session (docs/requirements.md#data-the-console-shows), which the resources calls are about. */
export function useOrganizationId(): string | null {
  return useSession().organizationId;
}
