import { DRILL_SCHEDULES, type DrillSchedule, type DrillSettings } from "@alpvault/contracts/drills";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { skipToken, useQuery } from "@tanstack/react-query";

export const drillsPath = (organizationId: string) =>
  `/organizations/${encodeURIComponent(organizationId)}/drills`;

const textOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

export function decodeDrillSettings(value: unknown): DrillSettings {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (
    typeof v.enabled === "boolean" &&
    textOrNull(v.sandboxResourceId) &&
    textOrNull(v.sandboxEmail) &&
    typeof v.sampleSize === "number" &&
    DRILL_SCHEDULES.includes(v.schedule as DrillSchedule) &&
    textOrNull(v.nextDrillAt) &&
    textOrNull(v.updatedAt) &&
    textOrNull(v.updatedBy)
  ) {
    return {
      enabled: v.enabled,
      sandboxResourceId: v.sandboxResourceId,
      sandboxEmail: v.sandboxEmail,
      sampleSize: v.sampleSize,
      schedule: v.schedule as DrillSchedule,
      nextDrillAt: v.nextDrillAt,
      updatedAt: v.updatedAt,
      updatedBy: v.updatedBy,
    };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `GET /v1/organizations/{id}/drills`: the restore drill settings. */
export async function getDrillSettings(organizationId: string, signal?: AbortSignal): Promise<DrillSettings> {
  return decodeDrillSettings(await api.get<unknown>(drillsPath(organizationId), { signal }));
}

/** The query keys of the restore drills: the settings, and under them the history of runs. */
export const drillsKeys = {
  all: (organizationId: string | null) => ["drills", organizationId] as const,
  settings: (organizationId: string | null) => [...drillsKeys.all(organizationId), "settings"] as const,
  runs: (organizationId: string | null) => [...drillsKeys.all(organizationId), "runs"] as const,
};

export function useDrillSettings(organizationId: string | null) {
  return useQuery({
    queryKey: drillsKeys.settings(organizationId),
    queryFn: organizationId ? ({ signal }) => getDrillSettings(organizationId, signal) : skipToken,
  });
}
