import type { RegionId } from "@alpvault/contracts/regions";
import { LEASE_MARGIN_MS, openStretch, type StretchDeps } from "./stretch";
import type { Scope } from "./tenancy";

type Task = { organizationId: string; runId: string };

const task: Task = { organizationId: "org-1", runId: "run-1" };
const organization = { organizationId: "org-1", regionId: "ch" as RegionId, domain: "example.com" };

function deps(clock: { at: number }) {
  const enqueue = jest.fn(async (_regionId: RegionId, _task: Task, _options?: { id?: string }) => undefined);
  const stretchDeps: StretchDeps<Task> = {
    enqueue,
    budgetMs: 60_000,
    servingRegion: "ch" as RegionId,
    now: () => clock.at,
  };
  return { enqueue, stretchDeps };
}

/** A stretch of a run the lease was taken of. */
function leased(stretchDeps: StretchDeps<Task>) {
  return openStretch(task, stretchDeps, { organization: async () => organization, lease: async () => ({}) });
}

test("when the region serves the organisation and the lease is taken, then the stretch holds the run until past its deadline", async () => {
  const clock = { at: Date.parse("2024-05-01T10:00:00.000Z") };
  const { stretchDeps } = deps(clock);
  const lease = jest.fn(async (_scope: Scope, _holder: string, _until: string, _now: string) => ({
    runId: "run-1",
  }));
  const served = jest.fn(async () => organization);
  const stretch = await openStretch(task, stretchDeps, { organization: served, lease });
  expect(served).toHaveBeenCalledWith("org-1", "ch");
  expect(stretch?.organization).toBe(organization);
  expect(stretch?.scope).toEqual({ organizationId: "org-1", regionId: "ch" });
  expect(stretch?.run).toEqual({ runId: "run-1" });
  expect(stretch?.deadline).toBe(clock.at + 60_000);
  const [scope, holder, until, now] = lease.mock.calls[0]!;
  expect(scope).toEqual({ organizationId: "org-1", regionId: "ch" });
  expect(holder).toBe(stretch?.holder);
  expect(until).toBe(new Date(clock.at + 60_000 + LEASE_MARGIN_MS).toISOString());
  expect(now).toBe("2024-05-01T10:00:00.000Z");
});

test("when the organisation is not served here or the lease is not taken, then there is no stretch", async () => {
  const clock = { at: 0 };
  const { stretchDeps } = deps(clock);
  const lease = jest.fn(async () => ({ runId: "run-1" }));
  expect(
    await openStretch(task, stretchDeps, { organization: async () => undefined, lease }),
  ).toBeUndefined();
  expect(lease).not.toHaveBeenCalled();
  const notTaken = async () => undefined;
  expect(
    await openStretch(task, stretchDeps, { organization: async () => organization, lease: notTaken }),
  ).toBeUndefined();
});

test("when the deadline is reached, then the stretch is late", async () => {
  const clock = { at: 1_000 };
  const { stretchDeps } = deps(clock);
  const stretch = await leased(stretchDeps);
  expect(stretch?.late()).toBe(false);
  clock.at = 61_000;
  expect(stretch?.late()).toBe(true);
});

test("when a stretch hands over after saving, then its task is enqueued again in its region", async () => {
  const clock = { at: 0 };
  const { enqueue, stretchDeps } = deps(clock);
  const stretch = await leased(stretchDeps);
  expect(await stretch?.handOver(async () => true)).toBe("continued");
  expect(await stretch?.handOver(async () => undefined, { id: "run-1-2" })).toBe("continued");
  expect(enqueue.mock.calls).toEqual([
    ["ch", task],
    ["ch", task, { id: "run-1-2" }],
  ]);
});

test("when the save finds the lease lost, then the stretch is dropped without enqueuing", async () => {
  const clock = { at: 0 };
  const { enqueue, stretchDeps } = deps(clock);
  const stretch = await leased(stretchDeps);
  expect(await stretch?.handOver(async () => false)).toBe("dropped");
  expect(enqueue).not.toHaveBeenCalled();
});
