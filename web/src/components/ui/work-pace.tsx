import Typography from "@mui/material/Typography";
import { durationText, type WorkPace as Pace } from "@alpvault/contracts/eta";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

/** "about 3 h 20 min", or "under a minute" (no "about" before it). */
export function aboutDuration(seconds: number, t: TFunction): string {
  const duration = durationText(seconds);
  return seconds < 60 ? duration : t("progress.about", { duration });
}

/**
 * How fast work under way goes and when it should end (docs/backup-engine.md "Totals, rate and time
 * left"): its measured pace, the time left, and what sets that pace (a Google quota by name, or its own
 * measured pace); nothing while none of it is known.
 */
export function WorkPace({
  pace,
  testId,
}: {
  /** A backup's, recovery's or export's progress (or anything with its pace fields). */
  pace: Pick<Pace, "itemsPerMinute" | "etaSeconds" | "limit">;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const { itemsPerMinute, etaSeconds, limit } = pace;
  const parts = [
    itemsPerMinute !== null
      ? t("progress.rate", { rate: Math.round(itemsPerMinute).toLocaleString(i18n.language) })
      : null,
    etaSeconds !== null ? t("progress.left", { duration: aboutDuration(etaSeconds, t) }) : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0 && !limit) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="div" data-testid={testId}>
      {parts.length > 0 && <span data-testid={`${testId}-eta`}>{parts.join(" · ")}</span>}
      {limit && parts.length > 0 && " · "}
      {limit && (
        <span data-testid={`${testId}-limit`} data-kind={limit.kind}>
          {limit.kind === "none" ? limit.text : t("progress.setBy", { limit: limit.text })}
        </span>
      )}
    </Typography>
  );
}
