import { GoogleApiError } from "./http";
import { QuotaTracker } from "./quota";

function clock(start = Date.UTC(2026, 10, 22, 12)): { now: () => number; advance(ms: number): void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

function refusal(run: () => void): GoogleApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof GoogleApiError) return error;
    throw error;
  }
  throw new Error("Expected the call to be refused");
}

describe("quota model 2026", () => {
  test("when methods are charged, then each costs Google's 2026 units", () => {
    const quota = new QuotaTracker();
    expect(quota.cost("gmail.users.messages.get")).toBe(20);
    expect(quota.cost("gmail.users.messages.list")).toBe(5);
    expect(quota.cost("gmail.users.history.list")).toBe(2);
    expect(quota.cost("gmail.users.labels.list")).toBe(1);
    expect(quota.cost("gmail.users.messages.import")).toBe(25);
    expect(quota.cost("gmail.users.messages.insert")).toBe(25);
    expect(quota.cost("gmail.users.messages.attachments.get")).toBe(20);
    expect(quota.cost("drive.files.get")).toBe(5);
    expect(quota.cost("drive.files.list")).toBe(100);
    expect(quota.cost("drive.files.download")).toBe(200);
    expect(quota.cost("drive.files.create")).toBe(50);
    expect(quota.cost("directory.users.list")).toBe(1);
  });

  test("when a user spends 6,000 Gmail units within a minute, then the next call is 429 rateLimitExceeded until units refill", () => {
    const time = clock();
    const quota = new QuotaTracker({}, time.now);
    for (let call = 0; call < 300; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
    const error = refusal(() => quota.begin("gmail.users.messages.get", "a@x.test"));
    expect(error.code).toBe(429);
    expect(error.reason).toBe("rateLimitExceeded");
    expect(error.domain).toBe("usageLimits");
    expect(error.message).toMatch(/^User-rate limit exceeded\. {2}Retry after \d{4}-\d\d-\d\dT/);
    // Another user has their own bucket.
    expect(() => quota.begin("gmail.users.messages.get", "b@x.test")()).not.toThrow();
    // 20 units refill in 200 ms at 6,000 units per minute.
    time.advance(200);
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")()).not.toThrow();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow(GoogleApiError);
  });

  test("when a Drive user exceeds the per-user limit, then it is 403 userRateLimitExceeded", () => {
    const quota = new QuotaTracker({}, clock().now);
    for (let call = 0; call < 1625; call += 1) quota.begin("drive.files.download", "a@x.test")();
    const error = refusal(() => quota.begin("drive.files.download", "a@x.test"));
    expect(error.code).toBe(403);
    expect(error.reason).toBe("userRateLimitExceeded");
  });

  test("when the project's per-minute units run out, then every user is refused with rateLimitExceeded", () => {
    const quota = new QuotaTracker({}, clock().now);
    for (let user = 0; user < 10; user += 1) {
      for (let call = 0; call < 1000; call += 1) quota.begin("drive.files.list", `u${user}@x.test`)();
    }
    const error = refusal(() => quota.begin("drive.files.list", "fresh@x.test"));
    expect(error.code).toBe(403);
    expect(error.reason).toBe("rateLimitExceeded");
    expect(error.message).toContain("drive.googleapis.com");
  });

  test("when the time scale is 60, then a quota minute refills in one real second", () => {
    const time = clock();
    const quota = new QuotaTracker({ timeScale: 60 }, time.now);
    for (let call = 0; call < 300; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow(GoogleApiError);
    time.advance(1000);
    for (let call = 0; call < 300; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow(GoogleApiError);
  });

  test("when too many requests of one user are in flight, then the next is 429 Too many concurrent requests", () => {
    const quota = new QuotaTracker({}, clock().now);
    const releases = Array.from({ length: 10 }, () => quota.begin("gmail.users.messages.get", "a@x.test"));
    const error = refusal(() => quota.begin("gmail.users.messages.get", "a@x.test"));
    expect(error.code).toBe(429);
    expect(error.message).toBe("Too many concurrent requests for user.");
    releases[0]?.();
    releases[0]?.(); // releasing twice counts once
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).not.toThrow();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow(GoogleApiError);
  });

  test("when quotas are disabled, then nothing is refused but units are still counted", () => {
    const quota = new QuotaTracker({ enabled: false }, clock().now);
    for (let call = 0; call < 1000; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
    const report = quota.report();
    expect(report.users["a@x.test"]?.["gmail.users.messages.get"]).toEqual({
      calls: 1000,
      units: 20_000,
      rejected: 0,
    });
    expect(report.project.gmail).toEqual({ calls: 1000, units: 20_000, rejected: 0 });
  });
});

describe("statistics and the legacy model", () => {
  test("when calls are made and refused, then stats count calls, units, refusals and daily totals per user", () => {
    const time = clock();
    const quota = new QuotaTracker({}, time.now);
    quota.begin("gmail.users.messages.list", "a@x.test")();
    quota.begin("gmail.users.history.list", "a@x.test")();
    for (let call = 0; call < 299; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow(GoogleApiError);
    const report = quota.report();
    expect(report.users["a@x.test"]).toEqual({
      "gmail.users.messages.list": { calls: 1, units: 5, rejected: 0 },
      "gmail.users.history.list": { calls: 1, units: 2, rejected: 0 },
      "gmail.users.messages.get": { calls: 299, units: 5980, rejected: 1 },
    });
    expect(report.daily["2026-11-22"]?.["a@x.test"]).toEqual({ gmail: 5987 });
    quota.reset();
    expect(quota.report().users).toEqual({});
  });

  test("when the legacy model is chosen, then messages.get costs 5 units and a user has 15,000 per minute", () => {
    const quota = new QuotaTracker({ model: "legacy" }, clock().now);
    expect(quota.cost("gmail.users.messages.get")).toBe(5);
    expect(quota.cost("drive.files.list")).toBe(1);
    for (let call = 0; call < 3000; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow(GoogleApiError);
  });

  test("when the time scale is not positive, then configuring it is refused", () => {
    expect(() => new QuotaTracker().configure({ timeScale: 0 })).toThrow("timeScale");
  });
});
