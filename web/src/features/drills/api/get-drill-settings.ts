import { DRILL_SCHEDULES, type DrillSchedule, type DrillSettings } from "@alpvault/contracts/drills";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useApiQuery } from "@/lib/use-api-query";

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

export function useDrillSettings(organizationId: string | null) {
  return useApiQuery(organizationId ? `drills|${organizationId}` : null, (signal) =>
    getDrillSettings(organizationId as string, signal),
  );
}
