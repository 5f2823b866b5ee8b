/**
 * Display helpers (docs/requirements.md#validation, #constants-and-limits): initials, storage sizes, prices, days, relative time, random ids and the
 * consumer-mail check. Pure functions: no DOM, no app imports, unit-tested in `format.test.ts`.
 */
import { dayText } from "@alpvault/contracts/dates";

/** Initials: the first letter of each word, in upper case ("Ada Brunner" → "AB"). */
export function initials(name: string | null | undefined): string {
  if (!name) return "";
  return name
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => Array.from(word)[0]?.toLocaleUpperCase() ?? "")
    .join("");
}

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;

function fixed(value: number, decimals: number): string {
  return value.toFixed(Math.max(0, Math.min(20, Math.trunc(decimals))));
}

/** Bytes in GB (1 GB = 1024³ bytes) with `decimals` decimals (default 2): the unit of the resources table. */
export function formatGigabytes(bytes: number, decimals = 2): string {
  const safe = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  return `${fixed(safe / GIB, decimals)} GB`;
}

/**
 * A storage size in the largest fitting unit: B, KB and MB with two decimals, GB (the largest unit) with
 * `gbDecimals` decimals (default 2). Units are binary (1 KB = 1024 B). Negative or invalid sizes count as 0.
 */
export function formatStorage(bytes: number, gbDecimals = 2): string {
  const safe = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (safe < KIB) return `${fixed(safe, 2)} B`;
  if (safe < MIB) return `${fixed(safe / KIB, 2)} KB`;
  if (safe < GIB) return `${fixed(safe / MIB, 2)} MB`;
  return formatGigabytes(safe, gbDecimals);
}

/** A price in US dollars with 0 to 2 decimals ("$3", "$3.5", "$3.99"). */
export function formatPrice(amount: number, locale = "en-US"): string {
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 0,
    maximumFractionDigits: 2,
  }).format(Number.isFinite(amount) ? amount : 0);
}

/**
 * A day, the product's one way (`dayText` of contracts, which the API's texts use too): the long date of
 * the UTC day `date` falls on, in `locale` ("December 9, 2026"; "9 décembre 2026"). Empty for no date.
 */
export function formatDate(date: Date | string | number, locale = "en"): string {
  return dayText(date, locale);
}

/** Relative-time thresholds (docs/requirements.md#constants-and-limits): below them the smaller unit is used. */
export const RELATIVE_TIME_THRESHOLDS = {
  seconds: 45,
  minutes: 45,
  hours: 22,
  days: 26,
  months: 11,
} as const;

export type RelativeTimeUnit = "second" | "minute" | "hour" | "day" | "month" | "year";

/** Days in an average month of the Gregorian calendar (146097 days in 4800 months). */
const DAYS_PER_MONTH = 146097 / 4800;

/**
 * The unit and signed amount in which `date` is shown relative to `now` (negative: in the past): under 45
 * seconds in seconds, under 45 minutes in minutes, under 22 hours in hours, under 26 days in days, under 11
 * months in months, otherwise in years. Amounts are rounded; a rounded amount never drops below 1 once the
 * unit is larger than seconds.
 */
export function relativeTimeParts(
  date: Date | string | number,
  now: Date | number = Date.now(),
): { value: number; unit: RelativeTimeUnit } {
  const milliseconds = new Date(date).getTime() - new Date(now).getTime();
  const sign = milliseconds < 0 ? -1 : 1;
  const absolute = Math.abs(milliseconds);
  const seconds = Math.round(absolute / 1000);
  const minutes = Math.round(absolute / 60_000);
  const hours = Math.round(absolute / 3_600_000);
  const days = Math.round(absolute / 86_400_000);
  const months = Math.round(absolute / 86_400_000 / DAYS_PER_MONTH);
  const years = Math.round(absolute / 86_400_000 / DAYS_PER_MONTH / 12);
  const signed = (value: number, unit: RelativeTimeUnit) => ({
    value: value === 0 ? 0 : sign * value,
    unit,
  });
  const limits = RELATIVE_TIME_THRESHOLDS;
  if (seconds < limits.seconds) return signed(seconds, "second");
  if (minutes < limits.minutes) return signed(Math.max(1, minutes), "minute");
  if (hours < limits.hours) return signed(Math.max(1, hours), "hour");
  if (days < limits.days) return signed(Math.max(1, days), "day");
  if (months < limits.months) return signed(Math.max(1, months), "month");
  return signed(Math.max(1, years), "year");
}

/** `date` relative to `now` in words ("3 hours ago", "in 2 days", "now"), in `locale`. */
export function formatRelativeTime(
  date: Date | string | number,
  now: Date | number = Date.now(),
  locale = "en",
): string {
  if (Number.isNaN(new Date(date).getTime())) return "";
  const { value, unit } = relativeTimeParts(date, now);
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(value, unit);
}

/**
 * When something that has happened (a last backup, a verification, an alert) happened, relative to `now`:
 * never in the future. The screen's clock moves on every 30 s (`useNow`) and the server's may run ahead of
 * the browser's, so a time just after `now` reads "now", not "in 27 seconds".
 */
export function formatPastTime(date: Date | string | number, now: Date | number, locale = "en"): string {
  const at = new Date(date).getTime();
  return formatRelativeTime(Number.isNaN(at) ? date : Math.min(at, new Date(now).getTime()), now, locale);
}

/** The random-id alphabet (docs/requirements.md#constants-and-limits): digits, letters, hyphen and underscore (64 characters). */
export const RANDOM_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

/** A random id of `length` characters (default 10) from the alphabet above, from the platform's CSPRNG. */
export function randomId(length = 10): string {
  const size = Math.max(0, Math.trunc(length));
  const bytes = new Uint8Array(size);
  globalThis.crypto.getRandomValues(bytes);
  let id = "";
  // 64 characters: the low six bits of each byte pick one without bias.
  for (const byte of bytes) id += RANDOM_ID_ALPHABET[byte & 63];
  return id;
}

export const CONSUMER_MAIL_DOMAIN = "gmail.com";
export const ALTERNATE_CONSUMER_MAIL_DOMAIN = "googlemail.com";

/**
 * Consumer-mail check (docs/requirements.md#validation): true only for a non-empty string whose domain is the consumer mail domain
 * (`gmail.com`), never the alternate `googlemail.com`; case-insensitive.
 */
export function isConsumerMail(address: unknown): boolean {
  if (typeof address !== "string") return false;
  const normalised = address.trim().toLowerCase();
  if (normalised === "") return false;
  if (normalised.endsWith(ALTERNATE_CONSUMER_MAIL_DOMAIN)) return false;
  return (
    normalised.endsWith(`@${CONSUMER_MAIL_DOMAIN}`) && normalised.length > CONSUMER_MAIL_DOMAIN.length + 1
  );
}
