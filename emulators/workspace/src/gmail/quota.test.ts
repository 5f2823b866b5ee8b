import { ManualClock } from "../../../kit/src/index";
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import type { MethodStats, QuotaStats } from "../quota-models";
import { testMessage } from "./testing-messages";

let harness: Harness;
beforeAll(async () => {
  // Quota refusals do not depend on answer times: the latency model is off for this file's emulator.
  harness = await startHarness({ latency: { enabled: false } });
});
afterAll(() => harness.stop());

test("when a user's Gmail quota is drained, then messages.get is 429 rateLimitExceeded and stats count 20 units a call", async () => {
  const userId = harness.emulator.directory.user(TEST_USER)?.id ?? "";
  const { id } = harness.emulator.gmail.insertMessage(userId, testMessage({ subject: "Quota" }));
  const gmail = harness.gmail(TEST_USER);
  await harness.admin("POST", "/stats:reset");
  // 6,000 units a minute at 20 a call: about 300 calls, then Gmail refuses.
  let succeeded = 0;
  let failure: Awaited<ReturnType<typeof googleError>> | undefined;
  for (let call = 0; call < 1000 && !failure; call += 1) {
    const error: unknown = await gmail.users.messages
      .get({ userId: "me", id, format: "minimal" }, { retry: false })
      .then(
        () => undefined,
        (rejection: unknown) => rejection ?? new Error("rejected"),
      );
    if (error === undefined) succeeded += 1;
    else failure = await googleError(Promise.reject(error));
  }
  expect(failure).toMatchObject({ status: 429, reason: "rateLimitExceeded" });
  expect(failure?.message).toMatch(/^User-rate limit exceeded/);
  expect(succeeded).toBeGreaterThanOrEqual(300);
  const { body } = await harness.admin<QuotaStats>("GET", "/stats");
  const stats = body.users[TEST_USER]?.["gmail.users.messages.get"] as MethodStats;
  expect(stats.calls).toBe(succeeded);
  expect(stats.units).toBe(succeeded * 20);
  expect(stats.rejected).toBeGreaterThanOrEqual(1);
});

describe("Gmail's per-user limit, both forms", () => {
  let slow: Harness;
  beforeAll(async () => {
    // A slow quota clock: the user's bucket does not refill during the test. Latency is off: refusals do
    // not depend on answer times.
    slow = await startHarness({ quota: { timeScale: 0.0001 }, latency: { enabled: false } });
  });
  afterAll(() => slow.stop());

  test("when a user keeps calling over the limit, then Gmail answers 429 User-rate limit and 403 'Queries per minute per user' in turn", async () => {
    const userId = slow.emulator.directory.user(TEST_USER)?.id ?? "";
    const { id } = slow.emulator.gmail.insertMessage(userId, testMessage({ subject: "Both forms" }));
    const gmail = slow.gmail(TEST_USER);
    await gmail.users.getProfile({ userId: "me" });
    for (;;) {
      try {
        slow.emulator.quota.begin("gmail.users.messages.get", TEST_USER)();
      } catch {
        break;
      }
    }
    const get = (): Promise<unknown> =>
      gmail.users.messages.get({ userId: "me", id, format: "minimal" }, { retry: false });
    const second = await googleError(get());
    const third = await googleError(get());
    const fourth = await googleError(get());
    // The drain above was the first refusal (429); the official client's calls continue the turn.
    expect([second.status, third.status, fourth.status]).toEqual([403, 429, 403]);
    expect(second.body).toEqual({
      error: {
        code: 403,
        message:
          "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'gmail.googleapis.com' for consumer 'project_number:104857600'.",
        errors: [
          {
            message:
              "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'gmail.googleapis.com' for consumer 'project_number:104857600'.",
            domain: "usageLimits",
            reason: "rateLimitExceeded",
          },
        ],
        status: "PERMISSION_DENIED",
      },
    });
    expect(third).toMatchObject({ status: 429, reason: "rateLimitExceeded" });
    expect(third.message).toMatch(/^User-rate limit exceeded\. {2}Retry after /);
  });
});

describe("Gmail's daily threshold and the project's quota model", () => {
  let daily: Harness;
  // The quota day passes on the emulator's clock, which the test moves.
  let clock: ManualClock;
  const project = "alpvault-backup-2026";
  beforeEach(async () => {
    clock = new ManualClock();
    daily = await startHarness({ projectId: project, latency: { enabled: false }, clock });
  });
  afterEach(() => daily.stop());

  test("when the project's units for the day are used up, then Gmail answers 403 dailyLimitExceeded until the quota day ends", async () => {
    const userId = daily.emulator.directory.user(TEST_USER)?.id ?? "";
    const { id } = daily.emulator.gmail.insertMessage(userId, testMessage({ subject: "Daily" }));
    const gmail = daily.gmail(TEST_USER);
    // The project lowers its threshold to 100 units (a quota override), so the test need not spend 80 M.
    const patched = await daily.admin("PATCH", "/quota", {
      projects: { [project]: { dailyUnits: { gmail: 100 } } },
    });
    expect(patched.status).toBe(200);
    for (let call = 0; call < 5; call += 1)
      await gmail.users.messages.get({ userId: "me", id, format: "minimal" });
    const failure = await googleError(gmail.users.labels.list({ userId: "me" }, { retry: false }));
    expect(failure.body).toEqual({
      error: {
        code: 403,
        message: "Daily Limit Exceeded",
        errors: [{ message: "Daily Limit Exceeded", domain: "usageLimits", reason: "dailyLimitExceeded" }],
        status: "PERMISSION_DENIED",
      },
    });
    const { body } = await daily.admin<QuotaStats>("GET", "/stats");
    expect(body.projects[body.quotaDay]?.[project]?.units.gmail).toBe(100);
    // The threshold resets when the quota day ends (midnight Pacific time), not before.
    const day = daily.emulator.quota.quotaDay();
    await clock.advance(60_000);
    expect(daily.emulator.quota.quotaDay()).toBe(day);
    expect((await googleError(gmail.users.labels.list({ userId: "me" }, { retry: false }))).status).toBe(403);
    await clock.advance(24 * 60 * 60_000);
    expect(daily.emulator.quota.quotaDay()).not.toBe(day);
    await expect(gmail.users.labels.list({ userId: "me" })).resolves.toMatchObject({ status: 200 });
  });

  test("when the project was active before the 2026 model, then it keeps the legacy quotas: messages.get costs 5 units and no daily threshold", async () => {
    const userId = daily.emulator.directory.user(TEST_USER)?.id ?? "";
    const { id } = daily.emulator.gmail.insertMessage(userId, testMessage({ subject: "Legacy" }));
    const gmail = daily.gmail(TEST_USER);
    await gmail.users.getProfile({ userId: "me" });
    await daily.admin("PATCH", "/quota", { projects: { [project]: { model: "legacy" } } });
    await daily.admin("POST", "/stats:reset");
    await gmail.users.messages.get({ userId: "me", id, format: "raw" });
    const { body } = await daily.admin<QuotaStats>("GET", "/stats");
    expect(body.settings.projects).toEqual({ [project]: { model: "legacy" } });
    expect(body.settings.model).toBe("2026");
    expect(body.users[TEST_USER]?.["gmail.users.messages.get"]).toEqual({ calls: 1, units: 5, rejected: 0 });
    expect(daily.emulator.quota.dailyLimits("gmail", project)).toEqual({});
    // Back to the default (2026): 20 units.
    await daily.admin("PATCH", "/quota", { projects: { [project]: null } });
    await gmail.users.messages.get({ userId: "me", id, format: "raw" });
    const after = await daily.admin<QuotaStats>("GET", "/stats");
    expect(after.body.users[TEST_USER]?.["gmail.users.messages.get"]).toEqual({
      calls: 2,
      units: 25,
      rejected: 0,
    });
    const invalid = await daily.admin("PATCH", "/quota", {
      projects: { [project]: { dailyUnits: { gmail: 1e9 } } },
    });
    expect(invalid.status).toBe(400);
  });
});
