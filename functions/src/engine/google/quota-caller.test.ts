import { PassThrough } from "node:stream";
import { GoogleCallError, classifyGoogleError } from "./errors";
import { FakeClock, flush } from "./fake-clock";
import { QUOTA_MODELS } from "./costs";
import { DEFAULT_RETRY_POLICY, backoffDelay, meteredCaller, quotaAwareCaller } from "./quota-caller";

const GET = { api: "gmail", user: "a@x.test", method: "gmail.users.messages.get", idempotent: true } as const;
const IMPORT = { ...GET, method: "gmail.users.messages.import", idempotent: false } as const;

/** A rejection shaped like a GaxiosError with Google's error body. */
function googleFailure(status: number, reason: string, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`status ${status}`), {
    response: {
      status,
      headers: new Headers(headers),
      data: { error: { code: status, message: "m", errors: [{ reason, domain: "global", message: "m" }] } },
    },
  });
}

function resetFailure(): Error {
  return Object.assign(new TypeError("fetch failed"), {
    cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
  });
}

/** A send() that fails with `failures` in order, then answers "ok". */
function scripted(failures: Error[]): { send: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    send: async () => {
      const failure = failures[calls];
      calls += 1;
      if (failure) throw failure;
      return "ok";
    },
    calls: () => calls,
  };
}

/** Runs a call to completion on the fake clock. */
async function settle<T>(clock: FakeClock, promise: Promise<T>): Promise<T> {
  let done = false;
  const settled = promise.finally(() => (done = true));
  settled.catch(() => undefined);
  for (let i = 0; i < 1_000 && !done; i += 1) await clock.advance(1_000);
  return settled;
}

describe("backoffDelay", () => {
  it("when retries go on, then the ceiling doubles from the base up to the cap", () => {
    const top = () => 0.999_999;
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((retry) => backoffDelay(retry, DEFAULT_RETRY_POLICY, top));
    expect(delays).toEqual([999, 1_999, 3_999, 7_999, 15_999, 31_999, 63_999, 63_999, 63_999]);
  });

  it("when the jitter draws 0, then the wait is 0 (full jitter)", () => {
    expect(backoffDelay(5, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });
});

describe("quotaAwareCaller", () => {
  it("when a GET meets 429, 403 rateLimitExceeded, 503 and a reset, then it is retried until it succeeds", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock, random: () => 0.5 });
    const script = scripted([
      googleFailure(429, "rateLimitExceeded"),
      googleFailure(403, "rateLimitExceeded"),
      googleFailure(503, "backendError"),
      resetFailure(),
    ]);
    await expect(settle(clock, caller.call(GET, script.send))).resolves.toBe("ok");
    expect(script.calls()).toBe(5);
    expect(caller.stats().methods[GET.method]).toEqual({
      calls: 1,
      attempts: 5,
      retries: 4,
      failures: 0,
      units: 100,
      // The backoffs after the 429 and the 403 rate limit: waits for quota (the 503's and the reset's are not).
      quotaWaitMs: 500 + 1_000,
    });
    expect(clock.sleeps.filter((ms) => ms > 0).slice(0, 4)).toEqual([500, 1_000, 2_000, 4_000]);
  });

  it("when Google answers Retry-After, then the retry waits at least that long", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock, random: () => 0 });
    const script = scripted([googleFailure(429, "rateLimitExceeded", { "retry-after": "7" })]);
    await settle(clock, caller.call(GET, script.send));
    expect(clock.sleeps).toContain(7_000);
  });

  it("when a POST meets a 503 or a reset, then it is not retried and fails as google-api-error", async () => {
    for (const failure of [googleFailure(503, "backendError"), resetFailure()]) {
      const clock = new FakeClock();
      const caller = quotaAwareCaller({ clock });
      const script = scripted([failure]);
      const error = await settle(clock, caller.call(IMPORT, script.send)).catch((e: unknown) => e);
      expect(script.calls()).toBe(1);
      expect(error).toBeInstanceOf(GoogleCallError);
      expect(classifyGoogleError(error)).toMatchObject({ kind: "fatal", reason: "google-api-error" });
    }
  });

  it("when a POST meets a 429, then it is retried (Google did not run it)", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock });
    const script = scripted([googleFailure(429, "rateLimitExceeded")]);
    await expect(settle(clock, caller.call(IMPORT, script.send))).resolves.toBe("ok");
    expect(script.calls()).toBe(2);
  });

  it("when a 503 persists, then the call gives up after maxAttempts as a fatal google-api-error", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock, retry: { maxAttempts: 3 } });
    const script = scripted(Array.from({ length: 10 }, () => googleFailure(503, "backendError")));
    const error = await settle(clock, caller.call(GET, script.send)).catch((e: unknown) => e);
    expect(script.calls()).toBe(3);
    expect(error).toBeInstanceOf(GoogleCallError);
    expect((error as GoogleCallError).attempts).toBe(3);
    expect(classifyGoogleError(error)).toEqual({
      kind: "fatal",
      reason: "google-api-error",
      status: 503,
      googleReason: "backendError",
    });
    expect(caller.stats().total.failures).toBe(1);
  });

  it("when a message is gone (404), then the call fails at once as an item error", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock });
    const script = scripted([googleFailure(404, "notFound")]);
    const error = await settle(clock, caller.call(GET, script.send)).catch((e: unknown) => e);
    expect(script.calls()).toBe(1);
    expect(classifyGoogleError(error)).toEqual({ kind: "item", status: 404, googleReason: "notFound" });
    expect((error as GoogleCallError).response?.status).toBe(404);
  });

  it("when calls exceed the user's per-minute units, then they wait for the refill", async () => {
    const clock = new FakeClock();
    // 100 units/min at 100%: five 20-unit calls now, then one every 12 s.
    const caller = quotaAwareCaller({
      clock,
      targetFraction: 1,
      limits: { gmail: { perUserPerMinute: 100 } },
    });
    let done = 0;
    for (let i = 0; i < 7; i += 1) void caller.call(GET, async () => (done += 1));
    await clock.advance(0);
    expect(done).toBe(5);
    await clock.advance(12_000);
    expect(done).toBe(6);
    await clock.advance(12_000);
    expect(done).toBe(7);
  });

  it("when the project keeps the legacy quota model, then the caller charges that model's costs", () => {
    const legacy = quotaAwareCaller({ model: QUOTA_MODELS.legacy });
    const current = quotaAwareCaller();
    expect([legacy.cost("gmail.users.messages.get"), current.cost("gmail.users.messages.get")]).toEqual([
      5, 20,
    ]);
    expect([legacy.cost("drive.files.download"), current.cost("drive.files.download")]).toEqual([1, 200]);
    expect([legacy.cost("drive.some.newMethod"), current.cost("drive.some.newMethod")]).toEqual([1, 5]);
  });

  it("when the project keeps the legacy quota model, then its user's minute holds 15,000 units", async () => {
    const clock = new FakeClock();
    // Calls of 500 units (a cost override), so the bucket's size shows in a few calls: 30 of them.
    const caller = quotaAwareCaller({
      clock,
      targetFraction: 1,
      model: QUOTA_MODELS.legacy,
      costs: { "gmail.users.messages.get": 500 },
      concurrentPerUser: 10,
    });
    let done = 0;
    const calls = Array.from({ length: 31 }, () => caller.call(GET, async () => (done += 1)));
    for (let i = 0; i < 20; i += 1) await clock.advance(0);
    expect(done).toBe(30);
    await clock.advance(2_000);
    await Promise.all(calls);
    expect(done).toBe(31);
  });

  it("when two users call, then each has their own per-user bucket", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({
      clock,
      targetFraction: 1,
      limits: { gmail: { perUserPerMinute: 20 } },
    });
    let done = 0;
    void caller.call(GET, async () => (done += 1));
    void caller.call({ ...GET, user: "b@x.test" }, async () => (done += 1));
    void caller.call(GET, async () => (done += 1));
    await clock.advance(0);
    expect(done).toBe(2);
    expect(Object.keys(caller.stats().users).sort()).toEqual(["a@x.test", "b@x.test"]);
  });

  it("when the project bucket is smaller than the users', then it holds every user back", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({
      clock,
      targetFraction: 1,
      limits: { gmail: { perUserPerMinute: 1_000, perProjectPerMinute: 40 } },
    });
    let done = 0;
    for (const user of ["a", "b", "c"]) void caller.call({ ...GET, user }, async () => (done += 1));
    await clock.advance(0);
    expect(done).toBe(2);
  });

  it.each([
    [
      "Gmail's per-user limit in its 403 form",
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'gmail.googleapis.com' for consumer 'project_number:1'.",
      "user",
    ],
    [
      "the project's limit",
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'gmail.googleapis.com' for consumer 'project_number:1'.",
      "project",
    ],
  ] as const)(
    "when Google answers 403 rateLimitExceeded naming %s, then that bucket alone is drained",
    async (_case, message, drained) => {
      const clock = new FakeClock();
      const caller = quotaAwareCaller({
        clock,
        targetFraction: 1,
        random: () => 0,
        limits: { gmail: { perUserPerMinute: 60, perProjectPerMinute: 6_000 } },
      });
      const limited = Object.assign(new Error("status 403"), {
        response: {
          status: 403,
          headers: new Headers(),
          data: {
            error: {
              code: 403,
              message,
              errors: [{ reason: "rateLimitExceeded", domain: "usageLimits", message }],
            },
          },
        },
      });
      const first = scripted([limited]);
      const call = caller.call(GET, first.send);
      await clock.advance(0);
      // Another user of the project: slowed by a drained project bucket only.
      let other = 0;
      void caller.call({ ...GET, user: "b@x.test" }, async () => (other += 1));
      await clock.advance(0);
      expect(other).toBe(drained === "project" ? 0 : 1);
      // The user who met the limit: slowed by a drained user bucket, and by a drained project bucket too.
      expect(first.calls()).toBe(1);
      await settle(clock, call);
      expect(first.calls()).toBe(2);
    },
  );

  it("when more requests of one user are in flight than allowed, then the next waits for a slot", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock, concurrentPerUser: 2 });
    const pending: (() => void)[] = [];
    let started = 0;
    const send = () =>
      new Promise<void>((resolve) => {
        started += 1;
        pending.push(resolve);
      });
    for (let i = 0; i < 3; i += 1) void caller.call(GET, send);
    await flush();
    expect(started).toBe(2);
    pending[0]?.();
    await flush();
    expect(started).toBe(3);
  });

  it("when send() throws an error that is not Google's, then it is rethrown as it is, without retry", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock });
    const bug = new TypeError("x is not a function");
    const script = scripted([bug]);
    await expect(settle(clock, caller.call(GET, script.send))).rejects.toBe(bug);
    expect(script.calls()).toBe(1);
  });

  it("when a call answers a stream, then its concurrency slot is held until the stream closes", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock, concurrentPerUser: 1 });
    const body = new PassThrough();
    const download = { ...GET, api: "drive", method: "drive.files.download" } as const;
    await caller.call(download, async () => ({ data: body }));
    let second = false;
    void caller.call(download, async () => (second = true));
    await flush();
    expect(second).toBe(false);
    body.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    await flush();
    expect(second).toBe(true);
  });

  it("when a call answers a web stream that the consumer cancels, then its slot is given back", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock, concurrentPerUser: 1 });
    const download = { ...GET, api: "drive", method: "drive.files.download" } as const;
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(8)),
    });
    const response = await caller.call(download, async () => ({ data: body }));
    let second = false;
    void caller.call(download, async () => (second = true));
    const reader = response.data.getReader();
    expect((await reader.read()).value).toHaveLength(8);
    await flush();
    expect(second).toBe(false);
    await reader.cancel();
    await flush();
    expect(second).toBe(true);
  });

  it("when a run meters its calls, then its units, attempts and retries are counted apart", async () => {
    const clock = new FakeClock();
    const shared = quotaAwareCaller({ clock });
    const run = meteredCaller(shared);
    await settle(clock, run.call(GET, scripted([googleFailure(429, "rateLimitExceeded")]).send));
    await shared.call(GET, async () => "another run");
    expect(run.usage).toEqual({
      calls: 1,
      attempts: 2,
      retries: 1,
      failures: 0,
      units: 40,
      quotaWaitMs: expect.any(Number) as number,
    });
    expect(run.usage.quotaWaitMs).toBeGreaterThan(0);
    expect(shared.stats().total.units).toBe(60);
  });

  it("when the request's signal aborts during a backoff, then the call stops with the signal's reason", async () => {
    const clock = new FakeClock();
    const caller = quotaAwareCaller({ clock, random: () => 0.5 });
    const controller = new AbortController();
    const script = scripted([googleFailure(503, "backendError"), googleFailure(503, "backendError")]);
    const outcome = caller.call({ ...GET, signal: controller.signal }, script.send).catch((e: unknown) => e);
    await clock.advance(0);
    expect(clock.pendingSleeps).toBe(1);
    const deadline = new Error("deadline");
    controller.abort(deadline);
    await expect(outcome).resolves.toBe(deadline);
    expect(script.calls()).toBe(1);
  });
});
