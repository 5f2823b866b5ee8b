import type { Theme } from "@mui/material/styles";
import type { RunOutcomeMark } from "@alpvault/contracts/activity";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/** The colour a run's outcome is marked in: the theme's status colours, so both themes keep their contrast. */
export function outcomeColor(theme: Theme, outcome: RunOutcomeMark): string {
  switch (outcome) {
    case "ok":
      return theme.palette.success.main;
    case "partial":
      return theme.palette.warning.main;
    case "failed":
      return theme.palette.error.main;
    case "running":
      return theme.palette.info.main;
  }
}

/** Dates with times in the console's language (medium date, short time). */
export function useDateTimeFormat(): Intl.DateTimeFormat {
  const { i18n } = useTranslation();
  return useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }),
    [i18n.language],
  );
}

/** A duration in words of hours, minutes and seconds: "1 h 5 min", "4 min 10 s", "12 s". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return rest > 0 ? `${minutes} min ${rest} s` : `${minutes} min`;
  return `${rest} s`;
}

/** A time axis's tick labels: the time of day ("5:29 AM") over a short span, else the day ("Nov 28"). */
export function useTickFormat(short: boolean): Intl.DateTimeFormat {
  const { i18n } = useTranslation();
  return useMemo(
    () =>
      new Intl.DateTimeFormat(
        i18n.language,
        short ? { hour: "numeric", minute: "2-digit" } : { month: "short", day: "numeric" },
      ),
    [i18n.language, short],
  );
}

/** The unit a chart of sizes up to `largest` bytes is drawn in (binary units, as `formatStorage`). */
export function sizeUnit(largest: number): { label: string; bytes: number } {
  const units = [
    { label: "GB", bytes: 1024 ** 3 },
    { label: "MB", bytes: 1024 ** 2 },
    { label: "KB", bytes: 1024 },
  ];
  return units.find((unit) => largest >= unit.bytes) ?? { label: "B", bytes: 1 };
}

/** `bytes` in `unit`, to three decimals. */
export function inUnit(bytes: number, unit: { bytes: number }): number {
  return Math.round((bytes / unit.bytes) * 1000) / 1000;
}
