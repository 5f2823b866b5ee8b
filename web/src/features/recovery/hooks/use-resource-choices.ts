import type { Resource } from "@alpvault/contracts/organizations";
import { useApiQuery } from "@/lib/use-api-query";

/** Reads the organisation's resources (the app passes the resources list's request). */
export type LoadResources = (organizationId: string, signal: AbortSignal) => Promise<Resource[]>;

/** The resources a recovery may go to, loaded once the admin chooses "another resource". */
export function useResourceChoices(organizationId: string | null, load: LoadResources, wanted: boolean) {
  const key = organizationId !== null && wanted ? organizationId : null;
  return useApiQuery(key, (signal) => load(organizationId as string, signal));
}
