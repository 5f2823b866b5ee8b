/// <reference types="jest" />
import type { DailyActivity } from "@alpvault/contracts/activity";
import { storageSeries, successRates, timeAxis } from "./chart-format";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-11-29T05:29:00.000Z");

/** The axis's tick labels, as the chart writes them. */
const labels = (axis: ReturnType<typeof timeAxis>) => axis.ticks.map((tick) => axis.format(tick));

describe("a run history's time axis", () => {
  it.each([
    ["runs are seconds apart (three runs in 80 s)", [T0 + 20 * SECOND, T0 + 60 * SECOND, T0 + 100 * SECOND]],
    ["runs are minutes apart", [T0, T0 + 7 * MINUTE, T0 + 31 * MINUTE]],
    ["runs are hours apart across midnight", [T0 - 8 * HOUR, T0 + 2 * HOUR, T0 + 14 * HOUR]],
    ["runs are days apart", [T0 - 20 * DAY, T0 - 3 * DAY, T0]],
    ["there is a single run", [T0]],
  ])("when %s, then every tick label is distinct and there are 2 to 7 of them", (_case, times) => {
    const axis = timeAxis(times, "en", "UTC");
    const written = labels(axis);
    expect(new Set(written).size).toBe(written.length);
    expect(written.length).toBeGreaterThanOrEqual(2);
    expect(written.length).toBeLessThanOrEqual(7);
  });

  it("when runs are seconds apart, then the labels say the seconds", () => {
    const axis = timeAxis([T0 + 20 * SECOND, T0 + 60 * SECOND, T0 + 100 * SECOND], "en", "UTC");
    expect(labels(axis)).toContain("5:29:30 AM");
  });

  it("when runs are days apart, then the labels are days", () => {
    const axis = timeAxis([T0 - 20 * DAY, T0], "en", "UTC");
    expect(labels(axis).every((label) => /^[A-Z][a-z]{2} \d{1,2}$/.test(label))).toBe(true);
  });

  it("when hours apart cross midnight, then the labels say the day as well", () => {
    const axis = timeAxis([T0 - 8 * HOUR, T0 + 14 * HOUR], "en", "UTC");
    expect(labels(axis)).toEqual([
      "Nov 29, 12:00 AM",
      "Nov 29, 6:00 AM",
      "Nov 29, 12:00 PM",
      "Nov 29, 6:00 PM",
    ]);
  });

  it("when the runs are drawn, then each one and every tick lies inside the axis, the last tick short of its end", () => {
    const times = [T0 + 20 * SECOND, T0 + 60 * SECOND, T0 + 100 * SECOND];
    const axis = timeAxis(times, "en", "UTC");
    for (const time of [...times, ...axis.ticks]) {
      expect(time).toBeGreaterThanOrEqual(axis.min);
      expect(time).toBeLessThanOrEqual(axis.max);
    }
    // Room for the last label, centred on its tick: at least a third of a step before the end.
    const step = (axis.ticks[1] as number) - (axis.ticks[0] as number);
    expect(axis.max - (axis.ticks.at(-1) as number)).toBeGreaterThanOrEqual(step / 3);
    expect((axis.ticks[0] as number) - axis.min).toBeGreaterThanOrEqual(step / 3);
  });
});

const aDay = (date: string, change: Partial<DailyActivity> = {}): DailyActivity => ({
  date,
  runs: { ok: 3, partial: 1, failed: 0 },
  items: 10,
  bytes: 1024,
  storage: { gmail: 200 * 1024 ** 2, drive: 50 * 1024 ** 2, calendar: 3 * 1024 ** 2, contacts: 1024 ** 2 },
  ...change,
});

describe("the activity charts' series", () => {
  it("when storage is charted, then each service is drawn at its own figure, not stacked on another", () => {
    const series = storageSeries([aDay("2026-11-28", { storage: null }), aDay("2026-11-29")], {
      label: "MB",
      bytes: 1024 ** 2,
    });
    expect(series.map((one) => [one.id, one.data, "stack" in one])).toEqual([
      ["gmail", [null, 200], false],
      ["drive", [null, 50], false],
      ["calendar", [null, 3], false],
      ["contacts", [null, 1], false],
    ]);
  });

  it("when the success rate is charted, then each day plots its rate in percent, none without backups", () => {
    expect(
      successRates([
        aDay("2026-11-27", { runs: { ok: 0, partial: 0, failed: 0 } }),
        aDay("2026-11-28", { runs: { ok: 2, partial: 1, failed: 1 } }),
        aDay("2026-11-29", { runs: { ok: 0, partial: 0, failed: 3 } }),
      ]),
    ).toEqual([null, 75, 0]);
  });
});
