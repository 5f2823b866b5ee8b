import type { Resource } from "@alpvault/contracts/organizations";
import { skipToken, useQuery } from "@tanstack/react-query";

/** Reads the organisation's resources (the app passes the resources list's request). */
export type LoadResources = (organizationId: string, signal: AbortSignal) => Promise<Resource[]>;

export const resourceChoicesKeys = {
  all: (organizationId: string | null) => ["recovery-resource-choices", organizationId] as const,
};

/** The resources a recovery may go to, loaded once the admin chooses "another resource". */
export function useResourceChoices(organizationId: string | null, load: LoadResources, wanted: boolean) {
  return useQuery({
    queryKey: resourceChoicesKeys.all(organizationId),
    queryFn: organizationId !== null && wanted ? ({ signal }) => load(organizationId, signal) : skipToken,
  });
}
