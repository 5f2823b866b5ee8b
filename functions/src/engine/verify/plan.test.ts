import { DEADLINE_DAYS, MIN_DAILY_BYTES, ROTATION_DAYS, dailyBudget, planDay, type PlanInput } from "./plan";

const DAY = 24 * 3600 * 1000;
const GIB = 1024 ** 3;
const start = new Date("2026-01-01T03:00:00Z");
const dayAt = (n: number) => new Date(start.getTime() + n * DAY);

/** Runs the planner once a day for `days` days; returns each resource's verification days and each day's bytes. */
function simulate(
  resources: PlanInput[],
  days: number,
  grow: (day: number, resources: PlanInput[]) => void = () => undefined,
) {
  const verified = new Map<string, number[]>(resources.map((resource) => [resource.resourceId, []]));
  const dailyBytes: number[] = [];
  for (let day = 0; day < days; day++) {
    grow(day, resources);
    const now = dayAt(day);
    for (const resource of resources) {
      verified.set(resource.resourceId, verified.get(resource.resourceId) ?? []);
      resource.trackedSince ??= now.toISOString();
    }
    const plan = planDay(resources, now);
    let bytes = 0;
    for (const id of plan.resourceIds) {
      const resource = resources.find((candidate) => candidate.resourceId === id)!;
      resource.lastVerifiedAt = now.toISOString();
      verified.get(id)!.push(day);
      bytes += resource.bytes;
    }
    dailyBytes.push(bytes);
  }
  return { verified, dailyBytes };
}

/** The longest stretch, in days, between a resource's tracking start and its readings (and between readings). */
function longestGap(days: number[], trackedDay: number, lastDay: number): number {
  const points = [trackedDay, ...days, lastDay];
  let longest = 0;
  for (let index = 1; index < points.length; index++) {
    longest = Math.max(longest, points[index]! - points[index - 1]!);
  }
  return longest;
}

function resource(id: string, bytes: number): PlanInput {
  return { resourceId: id, bytes, lastVerifiedAt: null, trackedSince: null };
}

test("when the organisation stores little, then the budget is the floor and every resource is read on the first day", () => {
  expect(dailyBudget(5 * GIB)).toBe(MIN_DAILY_BYTES);
  const plan = planDay([resource("a", GIB / 2), resource("b", GIB / 2), resource("c", 0)], start);
  expect(plan.resourceIds).toEqual(["a", "b"]);
  expect(plan.budgetBytes).toBe(MIN_DAILY_BYTES);
});

test("when an organisation stores much, then the daily budget is its total over the rotation", () => {
  expect(dailyBudget(ROTATION_DAYS * 100 * GIB)).toBe(100 * GIB);
});

test("when resources were verified at different times, then the oldest verification comes first and never-verified before all", () => {
  const resources: PlanInput[] = [
    { resourceId: "recent", bytes: GIB, lastVerifiedAt: dayAt(-1).toISOString(), trackedSince: null },
    { resourceId: "old", bytes: GIB, lastVerifiedAt: dayAt(-10).toISOString(), trackedSince: null },
    { resourceId: "new", bytes: GIB, lastVerifiedAt: null, trackedSince: dayAt(0).toISOString() },
  ];
  expect(planDay(resources, start, GIB).resourceIds).toEqual(["new"]);
  expect(planDay(resources, start, 2 * GIB).resourceIds).toEqual(["new", "old"]);
});

test("when a resource alone is larger than the day's budget, then it is still read when it is the oldest", () => {
  const plan = planDay([resource("huge", 50 * GIB), resource("small", GIB)], start, GIB);
  expect(plan.resourceIds).toEqual(["huge"]);
});

test("when a resource reaches the deadline, then it is read whatever the budget", () => {
  const resources: PlanInput[] = [
    {
      resourceId: "due",
      bytes: 10 * GIB,
      lastVerifiedAt: dayAt(-DEADLINE_DAYS).toISOString(),
      trackedSince: null,
    },
    { resourceId: "never", bytes: 10 * GIB, lastVerifiedAt: null, trackedSince: start.toISOString() },
  ];
  const plan = planDay(resources, start, GIB);
  expect(plan.resourceIds).toEqual(["due"]);
  expect(plan.overdue).toBe(1);
});

test("when 200 resources of mixed sizes are planned for 120 days, then each is read at least every 28 days and the days share the work", () => {
  const resources = Array.from({ length: 200 }, (_, index) =>
    resource(`r${String(index).padStart(3, "0")}`, ((index * 7919) % 97) * GIB + GIB),
  );
  const days = 120;
  const { verified, dailyBytes } = simulate(resources, days);
  for (const [, readDays] of verified) {
    expect(readDays.length).toBeGreaterThan(0);
    expect(longestGap(readDays, 0, days - 1)).toBeLessThanOrEqual(DEADLINE_DAYS + 1);
  }
  // After the first rotation, no day reads more than twice the budget (the largest resource aside).
  const total = resources.reduce((sum, entry) => sum + entry.bytes, 0);
  const largest = Math.max(...resources.map((entry) => entry.bytes));
  for (const bytes of dailyBytes.slice(ROTATION_DAYS + DEADLINE_DAYS)) {
    expect(bytes).toBeLessThanOrEqual(2 * dailyBudget(total) + largest);
  }
});

test("when backups grow fast and new resources keep arriving, then the deadline still holds for every resource", () => {
  const resources = Array.from({ length: 50 }, (_, index) => resource(`r${index}`, 20 * GIB));
  const tracked = new Map<string, number>(resources.map((entry) => [entry.resourceId, 0]));
  const days = 150;
  const { verified } = simulate(resources, days, (day, list) => {
    for (const entry of list) entry.bytes += 2 * GIB; // every resource grows each day
    if (day % 3 === 0) {
      list.push(resource(`late${day}`, 100 * GIB));
      tracked.set(`late${day}`, day);
    }
  });
  for (const [id, readDays] of verified) {
    expect(longestGap(readDays, tracked.get(id)!, days - 1)).toBeLessThanOrEqual(DEADLINE_DAYS + 1);
  }
});
