import { nextDrillAt } from "./schedule";

const next = (schedule: "daily" | "weekly" | "monthly", now: string) =>
  nextDrillAt(schedule, new Date(now)).toISOString();

test("when a drill is daily, then it is due at the next 03:00 UTC", () => {
  expect(next("daily", "2026-11-24T02:59:59.000Z")).toBe("2026-11-24T03:00:00.000Z");
  expect(next("daily", "2026-11-24T03:00:00.000Z")).toBe("2026-11-25T03:00:00.000Z");
  expect(next("daily", "2026-12-31T18:00:00.000Z")).toBe("2027-01-01T03:00:00.000Z");
});

test("when a drill is weekly, then it is due on the next Sunday at 03:00 UTC", () => {
  // 2026-11-24 is a Tuesday; 2026-11-29 a Sunday.
  expect(next("weekly", "2026-11-24T10:00:00.000Z")).toBe("2026-11-29T03:00:00.000Z");
  expect(next("weekly", "2026-11-29T02:00:00.000Z")).toBe("2026-11-29T03:00:00.000Z");
  expect(next("weekly", "2026-11-29T03:00:00.000Z")).toBe("2026-12-06T03:00:00.000Z");
});

test("when a drill is monthly, then it is due on the next first of a month at 03:00 UTC", () => {
  expect(next("monthly", "2026-11-24T10:00:00.000Z")).toBe("2026-12-01T03:00:00.000Z");
  expect(next("monthly", "2026-12-01T02:00:00.000Z")).toBe("2026-12-01T03:00:00.000Z");
  expect(next("monthly", "2026-12-15T02:00:00.000Z")).toBe("2027-01-01T03:00:00.000Z");
});
