import type { ServiceId } from "@alpvault/contracts/services";
import type { RunRecord } from "../engine/runner/catalog";
import { fillDays, outcomeOf, runSummary } from "./history";

function run(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    runId: "run-1",
    resourceId: "user-1",
    state: "succeeded",
    cursor: null,
    progress: { items: 12, bytes: 3400, storedBytes: 1200 },
    unitsUsed: 250,
    itemErrors: [],
    itemErrorCount: 0,
    requestedAt: "2026-11-27T10:00:00.000Z",
    startedAt: "2026-11-27T10:00:02.000Z",
    finishedAt: "2026-11-27T10:01:00.000Z",
    ...overrides,
  };
}

describe("a run's mark in the history", () => {
  it("when a run succeeded without skipping anything, then it is ok", () => {
    expect(outcomeOf(run())).toBe("ok");
  });

  it("when a run succeeded but a service skipped items, then it is partial and counts them", () => {
    const partial = run({
      services: { drive: { state: "succeeded", skipped: { "not-exportable": 2, cannotDownloadFile: 1 } } },
    });
    expect(outcomeOf(partial)).toBe("partial");
    expect(runSummary(partial).skippedItems).toBe(3);
  });

  it("when a run failed, then it is failed with its reason; pending and running runs are running", () => {
    expect(runSummary(run({ state: "failed", failureReason: "google-api-error" }))).toMatchObject({
      outcome: "failed",
      failureReason: "google-api-error",
    });
    expect(runSummary(run({ state: "failed" })).failureReason).toBe("unknown-error");
    expect(outcomeOf(run({ state: "pending" }))).toBe("running");
    expect(outcomeOf(run({ state: "running" }))).toBe("running");
  });

  it("when a run is under way, then its live progress is shown when it is ahead of the recorded one", () => {
    const live = run({
      state: "running",
      finishedAt: undefined,
      liveProgress: { items: 40, bytes: 9000, storedBytes: 100 },
    });
    expect(runSummary(live)).toMatchObject({ items: 40, bytes: 9000, outcome: "running", finishedAt: null });
  });

  it("when item errors were recorded, then the first 20 are named with their service and reason", () => {
    const errors = Array.from({ length: 25 }, (_, index) => ({
      itemKey: `m${index}`,
      reason: "notFound",
      kind: index % 2 ? ("drive-file" as const) : ("gmail-message" as const),
    }));
    const summary = runSummary(run({ itemErrors: errors, itemErrorCount: 25 }));
    expect(summary.outcome).toBe("partial");
    expect(summary.skippedItems).toBe(25);
    expect(summary.problems).toHaveLength(20);
    expect(summary.problems[0]).toEqual({ itemKey: "m0", service: "gmail", reason: "notFound" });
    expect(summary.problems[1]?.service).toBe("drive");
  });
});

describe("the activity's days", () => {
  const now = new Date("2026-11-28T15:00:00Z");
  const day = (date: string, storage: Record<ServiceId, number> | null, ok = 0) => ({
    date,
    runs: { ok, partial: 0, failed: 0 },
    items: ok * 10,
    bytes: ok * 100,
    storage,
  });

  it("when days have no record, then they count nothing and carry the storage of the day before forward", () => {
    const days = fillDays(
      {
        days: [day("2026-11-26", { gmail: 50, drive: 70, calendar: 0, contacts: 0 }, 2)],
        storageBefore: { gmail: 10, drive: 20, calendar: 0, contacts: 0 },
      },
      7,
      now,
    );
    expect(days.map((entry) => entry.date)).toEqual([
      "2026-11-22",
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
      "2026-11-28",
    ]);
    expect(days[0]).toEqual({
      date: "2026-11-22",
      runs: { ok: 0, partial: 0, failed: 0 },
      items: 0,
      bytes: 0,
      storage: { gmail: 10, drive: 20, calendar: 0, contacts: 0 },
    });
    expect(days[4]).toMatchObject({
      runs: { ok: 2 },
      items: 20,
      storage: { gmail: 50, drive: 70, calendar: 0, contacts: 0 },
    });
    expect(days[6]?.storage).toEqual({ gmail: 50, drive: 70, calendar: 0, contacts: 0 });
  });

  it("when nothing was ever recorded, then the storage is null every day", () => {
    expect(fillDays({ days: [], storageBefore: null }, 7, now).every((entry) => entry.storage === null)).toBe(
      true,
    );
  });
});
