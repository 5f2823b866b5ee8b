import { useSession } from "@/lib/session";

/** The current organisation of the session (spec §3), which the resources calls are about. */
export function useOrganizationId(): string | null {
  return useSession().organizationId;
}
