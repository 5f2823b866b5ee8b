import { QUOTA_MODELS } from "../google/costs";
import { backupDailyUnits, estimateEta, paceShown, restoreDailyUnits, type EtaInput } from "./estimate";
import { workCosts } from "./work-costs";

const MODEL = QUOTA_MODELS["2026"];
const ALONE = { user: 1, project: 1 };

const input = (fields: Partial<EtaInput> & Pick<EtaInput, "work" | "left">): EtaInput => ({
  model: MODEL,
  runs: ALONE,
  ...fields,
});

test("when 10,000 messages are imported into one mailbox alone, then 250,000 units at 6,000 a minute take 41 min 40 s", () => {
  // messages.import costs 25 units; Gmail allows 6,000 units a minute per user: 240 messages a minute.
  const eta = estimateEta(input({ work: "gmail-restore", left: { items: 10_000, bytes: 500_000_000 } }));
  expect(eta.seconds).toBe(2_500);
  expect(eta.itemsPerMinute).toBe(240);
  expect(eta.bytesPerSecond).toBe(200_000);
  expect(eta.limit).toEqual({
    kind: "gmail-user",
    text: "Gmail's import limit of 240 messages a minute per mailbox",
  });
});

test("when a mailbox of 10,000 messages is backed up, then each costs a get and a 500th of a list page: 2,001 s", () => {
  // 20 + 5/500 = 20.01 units a message: 200,100 units at 6,000 a minute = 33.35 min.
  const eta = estimateEta(input({ work: "gmail-backup", left: { items: 10_000, bytes: null } }));
  expect(eta.seconds).toBe(2_001);
  expect(eta.limit.text).toBe("Gmail's read limit of 300 messages a minute per mailbox");
  expect(eta.itemsPerMinute).toBeCloseTo((10_000 / 2_001) * 60, 6);
  expect(eta.bytesPerSecond).toBeNull();
});

test("when a backup of the same mailbox runs beside the recovery, then the per-user limit is shared and the time doubles", () => {
  const eta = estimateEta(
    input({ work: "gmail-restore", left: { items: 10_000, bytes: null }, runs: { user: 2, project: 2 } }),
  );
  expect(eta.seconds).toBe(5_000);
  expect(eta.itemsPerMinute).toBe(120);
  expect(eta.limit).toEqual({
    kind: "gmail-user",
    text: "Gmail's import limit of 240 messages a minute per mailbox, shared by 2 runs",
  });
});

test("when 300 runs share the project's Gmail limit, then 4,000 units a minute each bind before the user's 6,000", () => {
  // 1,200,000 / 300 = 4,000 units a minute: 200,100 units in 50.025 min = 3,001.5 s.
  const eta = estimateEta(
    input({ work: "gmail-backup", left: { items: 10_000, bytes: null }, runs: { user: 1, project: 300 } }),
  );
  expect(eta.seconds).toBe(3_002);
  expect(eta.limit).toEqual({
    kind: "gmail-project",
    text: "the project's Gmail limit of 1,200,000 quota units a minute, shared by 300 runs",
  });
});

test("when the daily budget leaves little, then the rest comes at the day's allowance and the budget binds", () => {
  // Left now: 2,000,000 / 200 runs = 10,000 units. A day: 72,000,000 / 200 = 360,000 units.
  // (200,100 − 10,000) units at 360,000 a day = 190,100 × 86,400 / 360,000 = 45,624 s.
  const eta = estimateEta(
    input({
      work: "gmail-backup",
      left: { items: 10_000, bytes: null },
      runs: { user: 1, project: 200 },
      dailyUnits: { left: 2_000_000, perDay: 72_000_000, runs: 200 },
    }),
  );
  expect(eta.seconds).toBe(45_624);
  expect(eta.limit).toEqual({
    kind: "gmail-daily",
    text: "the project's daily Gmail budget of 72,000,000 quota units, shared by 200 runs",
  });
});

test("when the daily budget leaves more than the work needs, then the per-minute limit binds", () => {
  const eta = estimateEta(
    input({
      work: "gmail-backup",
      left: { items: 10_000, bytes: null },
      dailyUnits: { left: 300_000, perDay: 72_000_000, runs: 1 },
    }),
  );
  expect(eta.seconds).toBe(2_001);
  expect(eta.limit.kind).toBe("gmail-user");
});

test("when 1 TB is restored to a drive, then Drive's 750 GB a day per user binds: the last 250 GB wait 8 h", () => {
  // Units: 100 × 50 + 10¹² × 50 / 8 MiB ≈ 5,965,464 at 325,000 a minute ≈ 1,101 s; the upload limit:
  // (10¹² − 7.5 × 10¹¹) bytes at 7.5 × 10¹¹ a day = 28,800 s.
  const eta = estimateEta(input({ work: "drive-restore", left: { items: 100, bytes: 1e12 } }));
  expect(eta.seconds).toBe(28_800);
  expect(eta.limit).toEqual({ kind: "drive-upload", text: "Drive's upload limit of 750 GB a day per user" });
  const small = estimateEta(
    input({ work: "drive-restore", left: { items: 100, bytes: 8 * 1024 * 1024 * 10 } }),
  );
  // 100 × 50 + 10 pieces × 50 = 5,500 units at 325,000 a minute = 1.015… s.
  expect(small.seconds).toBe(2);
  expect(small.limit.kind).toBe("drive-user");
});

test("when a run measured a slower pace than the quota allows, then the time left follows it and says so", () => {
  // 100 messages in 120 s: 50 a minute; 1,000 left take 1,200 s (the quota alone: 250 s).
  const eta = estimateEta(
    input({
      work: "gmail-restore",
      left: { items: 1_000, bytes: null },
      measured: { items: 100, bytes: 0, seconds: 120 },
    }),
  );
  expect(eta.seconds).toBe(1_200);
  expect(eta.measuredItemsPerMinute).toBe(50);
  expect(eta.itemsPerMinute).toBe(240);
  expect(eta.limit).toEqual({
    kind: "measured",
    text: "its measured pace of 50 messages a minute, slower than Gmail's import limit of 240 messages a minute per mailbox",
  });
});

test("when a run measured a faster pace than the quota, or ran under a minute, then the quota's time stands", () => {
  const faster = estimateEta(
    input({
      work: "gmail-restore",
      left: { items: 1_000, bytes: null },
      measured: { items: 1_000, bytes: 0, seconds: 120 },
    }),
  );
  expect(faster.seconds).toBe(250);
  expect(faster.limit.kind).toBe("gmail-user");
  const early = estimateEta(
    input({
      work: "gmail-restore",
      left: { items: 1_000, bytes: null },
      measured: { items: 1, bytes: 0, seconds: 59 },
    }),
  );
  expect(early.seconds).toBe(250);
  expect(early.measuredItemsPerMinute).toBeNull();
});

test("when an export is estimated, then no Google quota applies and the time left is the slower of its measured paces", () => {
  const before = estimateEta(input({ work: "export", left: { items: 500, bytes: 100_000_000 } }));
  expect(before.seconds).toBeNull();
  expect(before.limit).toEqual({
    kind: "none",
    text: "No Google quota applies: the time left follows the measured pace, once it has run a minute",
  });
  // 100 items and 10 MB in 60 s: 500 items take 300 s, 100 MB take 600 s.
  const after = estimateEta(
    input({
      work: "export",
      left: { items: 500, bytes: 100_000_000 },
      measured: { items: 100, bytes: 10_000_000, seconds: 60 },
    }),
  );
  expect(after.seconds).toBe(600);
  expect(after.measuredItemsPerMinute).toBe(100);
  expect(after.limit.kind).toBe("none");
});

test("when a drive's file count is unknown, then no time is given but the per-user pace is named", () => {
  // 200 + 5 + 100/1,000 = 205.1 units a file: 325,000 / 205.1 ≈ 1,584.6 files a minute.
  const eta = estimateEta(input({ work: "drive-backup", left: { items: null, bytes: 5e9 } }));
  expect(eta.seconds).toBeNull();
  expect(eta.itemsPerMinute).toBeCloseTo(325_000 / 205.1, 6);
  expect(eta.limit).toEqual({ kind: "drive-user", text: "Drive's limit of 1,585 files a minute per user" });
});

test("when the project has the legacy model, then its own costs and limits give the figures", () => {
  // Legacy: messages.get 5 units, 15,000 a minute per user: 10,000 × 5.01 = 50,100 units = 200.4 s.
  const eta = estimateEta(
    input({ work: "gmail-backup", left: { items: 10_000, bytes: null }, model: QUOTA_MODELS.legacy }),
  );
  expect(eta.seconds).toBe(201);
  expect(eta.limit.text).toBe("Gmail's read limit of 2,994 messages a minute per mailbox");
  expect(workCosts(QUOTA_MODELS.legacy, "drive-backup")?.perItem).toBeCloseTo(2.001, 9);
});

test("when a raised project quota is given, then it replaces the model's per-minute project limit", () => {
  const eta = estimateEta(
    input({
      work: "gmail-backup",
      left: { items: 10_000, bytes: null },
      runs: { user: 1, project: 300 },
      projectUnitsPerMinute: { gmail: 2_400_000 },
    }),
  );
  // 2,400,000 / 300 = 8,000 a minute: above the user's 6,000, which binds again.
  expect(eta.limit.kind).toBe("gmail-user");
  expect(eta.seconds).toBe(2_001);
});

test("when the daily shares are read from the model, then backups get the pace less what was spent and restores the rest", () => {
  // 2026-03-02 starts at 08:00 UTC (PST). Five hours in, the pace allows 72,000,000 × 6 / 24 = 18,000,000.
  const instant = Date.UTC(2026, 2, 2, 13);
  expect(backupDailyUnits(MODEL, "gmail", 3_000_000, instant, 4)).toEqual({
    left: 15_000_000,
    perDay: 72_000_000,
    runs: 4,
  });
  expect(backupDailyUnits(MODEL, "gmail", 30_000_000, instant, 4)?.left).toBe(0);
  expect(restoreDailyUnits(MODEL, "gmail", 1)).toEqual({ left: 8_000_000, perDay: 8_000_000, runs: 1 });
  expect(restoreDailyUnits(QUOTA_MODELS.legacy, "gmail", 1)).toBeUndefined();
  expect(backupDailyUnits(QUOTA_MODELS.legacy, "drive", 0, instant, 1)).toBeUndefined();
});

test("when nothing is left, then no time is left, and the pace named is the limit's", () => {
  const eta = estimateEta(input({ work: "gmail-restore", left: { items: 0, bytes: 0 } }));
  expect(Object.is(eta.seconds, 0)).toBe(true);
  expect(eta.itemsPerMinute).toBe(240);
  expect(eta.limit.kind).toBe("gmail-user");
});

test("when a drive's bytes alone are known and measured, then the time left is the bytes' at the measured pace", () => {
  // 1 GB in 120 s: 500 MB a minute; 5 GB left take 600 s. Without a file count the quota gives no time.
  const eta = estimateEta(
    input({
      work: "drive-backup",
      left: { items: null, bytes: 5e9 },
      measured: { items: 0, bytes: 1e9, seconds: 120 },
    }),
  );
  expect(eta.seconds).toBe(600);
  expect(eta.measuredItemsPerMinute).toBeNull();
  expect(eta.limit).toEqual({ kind: "measured", text: "its measured pace of 500 MB a minute" });
});

test("when a recovery measured 434 items a minute under Gmail's import limit of 240 (items that needed no import), then the pace shown is the limit's, which sets the time left", () => {
  const eta = estimateEta(
    input({
      work: "gmail-restore",
      left: { items: 1_000, bytes: null },
      measured: { items: 434, bytes: 0, seconds: 60 },
    }),
  );
  expect(eta.limit.text).toBe("Gmail's import limit of 240 messages a minute per mailbox");
  expect(eta.measuredItemsPerMinute).toBe(434);
  // "434 items a minute · pace set by Gmail's import limit of 240 messages a minute" would contradict itself.
  expect(paceShown(eta)).toBe(240);
  expect(eta.seconds).toBe(250);
});

test("when the measured pace is below the limit's, or no quota applies, then the pace shown is the measured one", () => {
  const slower = estimateEta(
    input({
      work: "gmail-restore",
      left: { items: 1_000, bytes: null },
      measured: { items: 90, bytes: 0, seconds: 60 },
    }),
  );
  expect(slower.limit.kind).toBe("measured");
  expect(paceShown(slower)).toBe(90);
  const exported = estimateEta(
    input({
      work: "export",
      left: { items: 1_000, bytes: null },
      measured: { items: 900, bytes: 0, seconds: 60 },
    }),
  );
  expect(paceShown(exported)).toBe(900);
});
