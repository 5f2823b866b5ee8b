/**
 * Browse's own queries over catalog format v2 (docs/backup-format.md §9.4): a calendar's entries of a day
 * range, its marked entries and a user's calendars come out equal whether the entries were written in
 * version 1, in version 2, or half in each.
 */
import { FORMAT_SCOPES, testVersion, writeInEachFormat, type FormatScope } from "../backups/catalog/testing";
import type { CatalogVersion } from "../engine/runner/catalog";
import { calendarEntriesMarked, calendarEntriesStarting, entriesOf, type SearchableItem } from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const RESOURCE = "user-1";
const CALENDAR = "ada@example.test";
const scopes = FORMAT_SCOPES;

function entry(
  n: number,
  options: { entry?: "calendar" | "event"; recurring?: boolean } = {},
): CatalogVersion {
  const itemKey = `${CALENDAR}/e${n}`;
  const start = new Date(Date.UTC(2026, 2, 1 + n, 9)).toISOString();
  return testVersion(itemKey, "calendar-entry", {
    kind: "calendar",
    entry: options.entry ?? "event",
    summary: `meeting ${n}`,
    organizer: CALENDAR,
    attendees: [],
    start: options.entry === "calendar" ? "" : start,
    end: options.entry === "calendar" ? "" : start,
    calendarId: CALENDAR,
    ...(options.recurring ? { recurring: true as const, recurrence: ["RRULE:FREQ=WEEKLY"] } : {}),
    keywords: ["meeting"],
  });
}

const ENTRIES = [
  entry(0, { entry: "calendar" }),
  ...Array.from({ length: 12 }, (_, n) => entry(n + 1, { recurring: n % 4 === 0 })),
];

beforeAll(async () => {
  await writeInEachFormat(RESOURCE, ENTRIES);
});

const keysOf = (found: SearchableItem[]) => found.map((item) => item.itemKey);

test.each(["v2", "mixed"] as const)(
  "when a calendar's entries are browsed in %s, then its days, marks and calendars are those of version 1",
  async (format) => {
    const range = { from: "2026-03-03", to: "2026-03-09" };
    const browse = async (scope: FormatScope) => ({
      days: keysOf(await calendarEntriesStarting(scope, RESOURCE, "calendar-entry", CALENDAR, range, 4)),
      marked: keysOf(
        await calendarEntriesMarked(scope, RESOURCE, "calendar-entry", CALENDAR, "recurring", 10),
      ).sort(),
      calendars: keysOf(await entriesOf(scope, RESOURCE, "calendar-entry", "calendar", 10)),
    });
    const one = await browse(scopes.v1);
    expect(one.days).toHaveLength(4);
    expect(one.marked).toHaveLength(3);
    expect(one.calendars).toEqual([`${CALENDAR}/e0`]);
    expect(await browse(scopes[format])).toEqual(one);
  },
);
