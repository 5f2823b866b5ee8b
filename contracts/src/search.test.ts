import { SEARCH_MESSAGES, searchDateProblem } from "./search";

/** 10:00 UTC on March 31, 2026. */
const NOW = Date.parse("2026-03-31T10:00:00.000Z");

describe("a search's, browse's, recovery's or export's date", () => {
  it("when the day is today or before, then it is taken", () => {
    expect(searchDateProblem("03-31-2026", NOW)).toBeNull();
    expect(searchDateProblem("01-15-2020", NOW)).toBeNull();
  });

  it("when the day has begun somewhere on Earth (up to 14 hours ahead of UTC), then it is taken", () => {
    // 10:00 UTC is midnight past in UTC+14: April 1 has begun there.
    expect(searchDateProblem("04-01-2026", NOW)).toBeNull();
  });

  it("when the day has begun nowhere yet, then it is refused as a date in the future", () => {
    expect(searchDateProblem("04-02-2026", NOW)).toBe(SEARCH_MESSAGES.futureDate);
    expect(searchDateProblem("12-31-2099", NOW)).toBe(SEARCH_MESSAGES.futureDate);
  });

  it("when the text is not a real MM-DD-YYYY day, then its format is refused", () => {
    expect(searchDateProblem("2026-03-31", NOW)).toBe(SEARCH_MESSAGES.invalidDate);
    expect(searchDateProblem("02-30-2026", NOW)).toBe(SEARCH_MESSAGES.invalidDate);
  });
});
