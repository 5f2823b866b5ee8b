import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import type { MethodStats, QuotaStats } from "../quota";
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
