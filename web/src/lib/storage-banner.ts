/**
 * The storage banner of docs/requirements.md#states-and-flows: 'limit' when usage is at or above the maximum and not dismissed;
 * 'threshold' when usage is at least 80% and below the maximum and not dismissed; otherwise none.
 * Dismissals persist, and are reset when usage falls below 80% (threshold) or below 100% (limit).
 * No check when the maximum is 0 or missing.
 */
export const STORAGE_WARNING_RATIO = 0.8;

export type StorageBannerKind = "none" | "threshold" | "limit";

export interface StorageBannerDismissals {
  threshold: boolean;
  limit: boolean;
}

export const NO_DISMISSALS: StorageBannerDismissals = { threshold: false, limit: false };

export function storageBanner(
  used: number | null | undefined,
  maximum: number | null | undefined,
  dismissed: StorageBannerDismissals,
): { kind: StorageBannerKind; percent: 80 | 100 | null; dismissals: StorageBannerDismissals } {
  if (!maximum || maximum <= 0 || used === null || used === undefined) {
    return { kind: "none", percent: null, dismissals: dismissed };
  }
  const ratio = used / maximum;
  const dismissals = {
    threshold: ratio < STORAGE_WARNING_RATIO ? false : dismissed.threshold,
    limit: ratio < 1 ? false : dismissed.limit,
  };
  if (ratio >= 1 && !dismissals.limit) return { kind: "limit", percent: 100, dismissals };
  if (ratio >= STORAGE_WARNING_RATIO && ratio < 1 && !dismissals.threshold) {
    return { kind: "threshold", percent: 80, dismissals };
  }
  return { kind: "none", percent: null, dismissals };
}
