import { eventSearchFields, isLongEvent, LONG_EVENT_DAYS } from "./entries";

test("when an event lasts longer than the browse's lookback, then its search fields carry the mark; one exactly that long or shorter does not", () => {
  expect(LONG_EVENT_DAYS).toBe(31);
  // All-day: the end date is exclusive, as Google gives it.
  expect(isLongEvent("2027-06-01", "2027-07-02")).toBe(false);
  expect(isLongEvent("2027-06-01", "2027-07-03")).toBe(true);
  expect(isLongEvent("2027-06-01T08:00:00.000Z", "2027-07-02T08:00:00.000Z")).toBe(false);
  expect(isLongEvent("2027-06-01T08:00:00.000Z", "2027-07-02T08:00:01.000Z")).toBe(true);
  // No times (a cancelled instance's end, a calendar): never long.
  expect(isLongEvent("2027-06-01", "")).toBe(false);

  const fields = (start: string, end: string) =>
    eventSearchFields("a@example.com", "a@example.com", {
      summary: "Leave",
      start: { date: start },
      end: { date: end },
    });
  expect(fields("2027-06-01", "2027-08-31")).toMatchObject({ long: true, start: "2027-06-01" });
  expect(fields("2027-06-01", "2027-06-02")).not.toHaveProperty("long");
});
