import { nextBackupAt, scheduledDays, slotHours } from "./schedule";

// 2026-11-18 is a Wednesday.
const at = (iso: string) => new Date(iso);

describe("slotHours", () => {
  test("when the frequency is 1, 3 or 24 per day, then the slots are 02:00; 02:00/10:00/18:00; every hour", () => {
    expect(slotHours(1)).toEqual([2]);
    expect(slotHours(3)).toEqual([2, 10, 18]);
    expect(slotHours(24)).toEqual(Array.from({ length: 24 }, (_, hour) => hour));
  });
});

describe("scheduledDays", () => {
  test("when the schedule is named, then its days are the named ones; chosen days are kept; none has none", () => {
    expect(scheduledDays({ schedule: "every-day", days: [] })).toHaveLength(7);
    expect(scheduledDays({ schedule: "weekdays", days: [] })).toEqual([
      "monday",
      "tuesday",
      "wednesday",
      "thursday",
      "friday",
    ]);
    expect(scheduledDays({ schedule: "weekends", days: ["monday"] })).toEqual(["saturday", "sunday"]);
    expect(scheduledDays({ schedule: "days", days: ["tuesday"] })).toEqual(["tuesday"]);
    expect(scheduledDays({ schedule: "none", days: ["tuesday"] })).toEqual([]);
  });
});

describe("nextBackupAt", () => {
  test("when once a day every day, then the next 02:00 UTC after now (today's if not passed yet)", () => {
    const timing = { frequency: 1, schedule: "every-day", days: [] } as const;
    expect(nextBackupAt(timing, at("2026-11-18T01:59:59Z"))).toEqual(at("2026-11-18T02:00:00Z"));
    expect(nextBackupAt(timing, at("2026-11-18T02:00:00Z"))).toEqual(at("2026-11-19T02:00:00Z"));
    expect(nextBackupAt(timing, at("2026-11-18T23:30:00Z"))).toEqual(at("2026-11-19T02:00:00Z"));
  });

  test("when 3 a day, then the next of 02:00, 10:00 and 18:00", () => {
    const timing = { frequency: 3, schedule: "every-day", days: [] } as const;
    expect(nextBackupAt(timing, at("2026-11-18T09:00:00Z"))).toEqual(at("2026-11-18T10:00:00Z"));
    expect(nextBackupAt(timing, at("2026-11-18T10:00:00Z"))).toEqual(at("2026-11-18T18:00:00Z"));
    expect(nextBackupAt(timing, at("2026-11-18T18:30:00Z"))).toEqual(at("2026-11-19T02:00:00Z"));
  });

  test("when 24 a day, then the next full hour", () => {
    const timing = { frequency: 24, schedule: "every-day", days: [] } as const;
    expect(nextBackupAt(timing, at("2026-11-18T13:12:00Z"))).toEqual(at("2026-11-18T14:00:00Z"));
    expect(nextBackupAt(timing, at("2026-11-18T23:00:00Z"))).toEqual(at("2026-11-19T00:00:00Z"));
  });

  test("when weekdays only, then Friday night's next backup is Monday's", () => {
    const timing = { frequency: 1, schedule: "weekdays", days: [] } as const;
    expect(nextBackupAt(timing, at("2026-11-20T03:00:00Z"))).toEqual(at("2026-11-23T02:00:00Z"));
    expect(nextBackupAt(timing, at("2026-11-18T03:00:00Z"))).toEqual(at("2026-11-19T02:00:00Z"));
  });

  test("when weekends only, then a Wednesday's next backup is Saturday's, and Sunday's follows Saturday's", () => {
    const timing = { frequency: 3, schedule: "weekends", days: [] } as const;
    expect(nextBackupAt(timing, at("2026-11-18T12:00:00Z"))).toEqual(at("2026-11-21T02:00:00Z"));
    expect(nextBackupAt(timing, at("2026-11-21T19:00:00Z"))).toEqual(at("2026-11-22T02:00:00Z"));
  });

  test("when chosen days, then the next chosen day, also a full week later when today's slot has passed", () => {
    const wednesdays = { frequency: 1, schedule: "days", days: ["wednesday"] } as const;
    expect(nextBackupAt(wednesdays, at("2026-11-18T01:00:00Z"))).toEqual(at("2026-11-18T02:00:00Z"));
    expect(nextBackupAt(wednesdays, at("2026-11-18T02:30:00Z"))).toEqual(at("2026-11-25T02:00:00Z"));
    const mondayAndThursday = { frequency: 1, schedule: "days", days: ["thursday", "monday"] } as const;
    expect(nextBackupAt(mondayAndThursday, at("2026-11-19T05:00:00Z"))).toEqual(at("2026-11-23T02:00:00Z"));
  });

  test("when the schedule is none or has no chosen days, then there is no next scheduled backup", () => {
    expect(nextBackupAt({ frequency: 1, schedule: "none", days: [] }, at("2026-11-18T00:00:00Z"))).toBeNull();
    expect(
      nextBackupAt({ frequency: 24, schedule: "days", days: [] }, at("2026-11-18T00:00:00Z")),
    ).toBeNull();
  });

  test("when the month or year ends, then the next slot is in the next one", () => {
    const timing = { frequency: 1, schedule: "every-day", days: [] } as const;
    expect(nextBackupAt(timing, at("2026-12-31T12:00:00Z"))).toEqual(at("2027-01-01T02:00:00Z"));
  });
});
