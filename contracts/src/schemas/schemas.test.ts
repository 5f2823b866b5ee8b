import { MAX_SEATS, MAX_STORAGE_PACKS } from "../billing";
import { decodePurchase } from "./billing";
import { isCount } from "./common";
import { drillRunSchema } from "./drills";
import { healthResponseSchema } from "./health";
import { policiesResponseSchema } from "./policies";
import { recoverySchema } from "./recovery";
import {
  installationResponseSchema,
  resourceSchema,
  subscriptionDetailsSchema,
  subscriptionViewSchema,
} from "./organizations";

const policy = {
  policyId: "default",
  name: "Default policy",
  dataTypes: ["emails", "drive"],
  frequency: 1,
  schedule: "every-day",
  days: [],
  retentionDays: 30,
  archiving: false,
  isDefault: true,
  services: ["gmail", "drive"],
  plan: "matterhorn",
  resourceCount: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

test("when a count is a whole number of zero or more, then it is a count, and nothing else is", () => {
  for (const value of [0, 1, 2 ** 40]) expect(isCount(value)).toBe(true);
  for (const value of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1", null])
    expect(isCount(value)).toBe(false);
});

test("when a policies answer fits its contract, then it decodes to the same value without unknown fields", () => {
  const decoded = policiesResponseSchema.parse({ policies: [{ ...policy, extra: 1 }], planId: "geneva" });
  expect(decoded).toEqual({ policies: [policy], planId: "geneva" });
});

test("when a policies answer names an unknown plan or frequency, then it does not decode", () => {
  expect(policiesResponseSchema.safeParse({ policies: [policy], planId: "everest" }).success).toBe(false);
  expect(
    policiesResponseSchema.safeParse({ policies: [{ ...policy, frequency: 2 }], planId: "geneva" }).success,
  ).toBe(false);
});

test("when a recovery answer predates asOf and problems, then it reads as backed up last with none named", () => {
  const recovery = recoverySchema.parse({
    recoveryId: "r1",
    state: "running",
    service: "gmail",
    resourceId: "user-1",
    targetResourceId: "user-1",
    method: "folder",
    folderName: "Recovered",
    requestedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: null,
    progress: { total: 3, restored: 1, skipped: 0, failed: 0 },
    failureReason: null,
  });
  expect(recovery.asOf).toBeNull();
  expect(recovery.problems).toEqual([]);
});

test("when the health answer has no email for the caller, then the caller is shown without one", () => {
  const health = healthResponseSchema.parse({ status: "ok", version: "1", user: { uid: "u1" } });
  expect(health.user).toEqual({ uid: "u1", email: null });
});

test("when a drill run's trigger is not a schedule, then it was started by hand", () => {
  const run = drillRunSchema.parse({
    drillRunId: "d1",
    state: "passed",
    trigger: "other",
    requestedBy: "admin@example.com",
    requestedAt: "2026-01-01T00:00:00.000Z",
    startedAt: null,
    finishedAt: null,
    durationMs: null,
    sandboxResourceId: "user-1",
    sandboxEmail: "sandbox@example.com",
    sampleSize: 5,
    counts: { sample: 0, matched: 0, mismatched: 0, failed: 0, skipped: 0 },
    resources: [],
    problems: [],
    failureReason: null,
  });
  expect(run.trigger).toBe("manual");
});

test("when a resource answer lacks services and integrity, then it has none of either", () => {
  const resource = resourceSchema.parse({
    resourceId: "user-1",
    type: "email",
    name: "Ada",
    email: "ada@example.com",
    status: "active",
    policyId: null,
    policyName: null,
    protected: false,
    lastBackupAt: null,
    nextBackupAt: null,
    mailBackupBytes: 0,
    driveBackupBytes: 0,
    activeBackup: null,
    lastBackupFailure: null,
    lastVerifiedAt: null,
  });
  expect(resource.services).toEqual({});
  expect(resource.integrity).toBeNull();
});

test("when a purchase has 1 to the most seats or packs, then it reads as itself, and otherwise not at all", () => {
  expect(decodePurchase({ kind: "upgrade", planId: "geneva", seats: 3, extra: true })).toEqual({
    kind: "upgrade",
    planId: "geneva",
    seats: 3,
  });
  expect(decodePurchase({ kind: "storage", packs: MAX_STORAGE_PACKS })).toEqual({
    kind: "storage",
    packs: MAX_STORAGE_PACKS,
  });
  for (const purchase of [
    { kind: "upgrade", planId: "geneva", seats: 0 },
    { kind: "upgrade", planId: "geneva", seats: MAX_SEATS + 1 },
    { kind: "upgrade", planId: "everest", seats: 1 },
    { kind: "storage", packs: 1.5 },
    { kind: "gift" },
    null,
  ]) {
    expect(decodePurchase(purchase)).toBeUndefined();
  }
});

test("when a subscription answer carries only the fields asked for, then it is a view of one, not a whole one", () => {
  const view = {
    subscriptionId: "s1",
    plan: {
      id: "geneva",
      name: "Geneva",
      premium: true,
      maxUsers: null,
      storagePerUserBytes: 1,
      backupsPerDay: 3,
      services: ["gmail"],
    },
    seats: { used: 3, total: 10 },
  };
  expect(subscriptionViewSchema.safeParse(view).success).toBe(true);
  expect(subscriptionDetailsSchema.safeParse(view).success).toBe(false);
  expect(subscriptionViewSchema.safeParse({ ...view, seats: { used: "3", total: 10 } }).success).toBe(false);
  expect(subscriptionViewSchema.safeParse({ plan: view.plan }).success).toBe(false);
});

test("when an installation answer lacks the user's Workspace facts, then it does not decode", () => {
  const installation = {
    isAdmin: true,
    hasGWInstalled: true,
    organizations: [],
    user: {
      userId: "u1",
      email: "ada@example.com",
      displayName: null,
      pictureUrl: null,
      domain: "example.com",
      hasWorkspaceAccount: true,
    },
  };
  expect(installationResponseSchema.safeParse(installation).success).toBe(true);
  const { hasWorkspaceAccount: _dropped, ...user } = installation.user;
  expect(installationResponseSchema.safeParse({ ...installation, user }).success).toBe(false);
});
