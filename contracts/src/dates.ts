/**
 * The product's one way of writing a day: the long date ("December 9, 2026" in English) of the UTC day an
 * instant falls on. The API's texts (an alert's stop date) and the console (`web/src/lib/format.ts`
 * `formatDate`, in the console's language) both write days with it, so a day reads the same everywhere and
 * does not move with the browser's time zone (the product's days are UTC days, as a search's dates are).
 */
export function dayText(instant: string | number | Date, locale = "en-US"): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(date);
}
