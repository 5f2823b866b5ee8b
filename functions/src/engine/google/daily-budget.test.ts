import { QUOTA_MODELS } from "./costs";
import {
  MIN_DELIVERY_UNITS,
  PACE_LEAD_MS,
  backupRunSlots,
  backupRunsPerRegion,
  dailyBudget,
  deliveryShare,
  pacedAllowance,
  quotaDayOf,
} from "./daily-budget";

const HOUR = 60 * 60_000;

describe("quotaDayOf", () => {
  it("when it is morning in Zurich, then the quota day is still the previous Pacific date, ending at midnight Pacific", () => {
    // 2026-11-24 08:00 UTC is 00:00 PST (UTC−8).
    const day = quotaDayOf(Date.parse("2026-11-24T07:30:00Z"));
    expect(day).toEqual({
      day: "2026-11-23",
      startsAt: Date.parse("2026-11-23T08:00:00Z"),
      endsAt: Date.parse("2026-11-24T08:00:00Z"),
    });
  });

  it("when daylight saving time ends or starts that night, then the quota day lasts 25 or 23 hours", () => {
    // 2026-11-01: PDT (UTC−7) until 02:00, then PST (UTC−8).
    const day = quotaDayOf(Date.parse("2026-11-01T12:00:00Z"));
    expect(day.day).toBe("2026-11-01");
    expect(day.startsAt).toBe(Date.parse("2026-11-01T07:00:00Z"));
    expect(day.endsAt - day.startsAt).toBe(25 * HOUR);
    // 2026-03-08: PST until 02:00, then PDT.
    const spring = quotaDayOf(Date.parse("2026-03-08T20:00:00Z"));
    expect(spring.startsAt).toBe(Date.parse("2026-03-08T08:00:00Z"));
    expect(spring.endsAt - spring.startsAt).toBe(23 * HOUR);
    // The last day of a month ends on the first of the next.
    expect(quotaDayOf(Date.parse("2026-12-01T05:00:00Z")).endsAt).toBe(Date.parse("2026-12-01T08:00:00Z"));
  });
});

describe("pacedAllowance", () => {
  const day = quotaDayOf(Date.parse("2026-11-24T20:00:00Z"));

  it("when the day starts, then an hour of the budget may be spent; at noon, half a day and an hour; by the end, all of it", () => {
    expect(pacedAllowance(24_000, day, day.startsAt)).toBe(1_000);
    expect(pacedAllowance(24_000, day, day.startsAt + 12 * HOUR)).toBe(13_000);
    expect(pacedAllowance(24_000, day, day.endsAt - PACE_LEAD_MS)).toBe(24_000);
    expect(pacedAllowance(24_000, day, day.endsAt - 1)).toBe(24_000);
  });
});

describe("deliveryShare", () => {
  const budget = dailyBudget(QUOTA_MODELS["2026"], "gmail") ?? 0;
  const day = quotaDayOf(Date.parse("2026-11-24T20:00:00Z"));

  it("when nothing was spent at noon, then each of 200 runs may spend a 200th of what the pace allows", () => {
    const share = deliveryShare({ budget, used: 0, instant: day.startsAt + 12 * HOUR, runSlots: 200 });
    expect(budget).toBe(72_000_000);
    expect(share).toEqual({ units: Math.floor(Math.floor(72_000_000 * (13 / 24)) / 200) });
  });

  it("when the project spent ahead of the pace, then the delivery waits until the pace allows it a start", () => {
    const instant = day.startsAt + 2 * HOUR;
    const used = pacedAllowance(budget, day, instant);
    const share = deliveryShare({ budget, used, instant, runSlots: 200 });
    expect("waitUntil" in share && share.waitUntil).toBeGreaterThan(instant);
    const at = "waitUntil" in share ? share.waitUntil : 0;
    expect(pacedAllowance(budget, day, at) - used).toBeGreaterThanOrEqual(MIN_DELIVERY_UNITS * 200);
    expect(pacedAllowance(budget, day, at - 60_000) - used).toBeLessThan(MIN_DELIVERY_UNITS * 200);
  });

  it("when the day's budget is spent, then deliveries wait for the next quota day", () => {
    const share = deliveryShare({ budget, used: budget - 10, instant: day.endsAt - HOUR / 2, runSlots: 200 });
    expect(share).toEqual({ waitUntil: day.endsAt });
  });
});

describe("run slots", () => {
  it("when sized from the project's Gmail quota, then the runs at their per-user ceiling fit in the project's", () => {
    expect(backupRunSlots(QUOTA_MODELS["2026"])).toBe(200);
    expect(backupRunSlots(QUOTA_MODELS.legacy)).toBe(80);
    expect(backupRunSlots(QUOTA_MODELS["2026"], { gmail: 2_400_000 })).toBe(400);
    expect(backupRunsPerRegion(200, 3)).toBe(66);
    expect(backupRunsPerRegion(2, 3)).toBe(1);
  });
});
