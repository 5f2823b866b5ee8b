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

describe("per-user Gmail refusals: both of Google's forms", () => {
  const drain = (quota: QuotaTracker): void => {
    for (let call = 0; call < 300; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
  };

  test("when a user keeps calling over the per-minute limit, then 429 and 403 'Queries per minute per user' alternate", () => {
    const quota = new QuotaTracker({}, clock().now, {
      defaultProject: "alpvault",
      projectNumbers: { alpvault: "104857600" },
    });
    drain(quota);
    const answers = [0, 1, 2, 3].map(() =>
      refusal(() => quota.begin("gmail.users.messages.get", "a@x.test")),
    );
    expect(answers.map((error) => error.code)).toEqual([429, 403, 429, 403]);
    const forbidden = answers[1] as GoogleApiError;
    expect(forbidden.body()).toEqual({
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
    expect(quota.report().users["a@x.test"]?.["gmail.users.messages.get"]?.rejected).toBe(4);
  });

  test("when the answer is set to one form, then every refusal has that form", () => {
    for (const form of ["429", "403"] as const) {
      const quota = new QuotaTracker({ gmailUserLimit: form }, clock().now);
      drain(quota);
      const codes = [0, 1, 2].map(
        () => refusal(() => quota.begin("gmail.users.messages.get", "a@x.test")).code,
      );
      expect(codes).toEqual([Number(form), Number(form), Number(form)]);
    }
    expect(() => new QuotaTracker().configure({ gmailUserLimit: "sometimes" as "429" })).toThrow(
      "gmailUserLimit",
    );
  });
});

describe("daily thresholds", () => {
  /** 2026-11-22 23:59 Pacific time: the quota day ends a minute later. */
  const beforeMidnightPacific = Date.parse("2026-11-23T07:59:00.000Z");

  test("when the 2026 model applies, then Gmail has 80,000,000 units and Drive 400,000,000 units and 1 TB per project a day; legacy has none", () => {
    const quota = new QuotaTracker({ projects: { old: { model: "legacy" } } });
    expect(quota.dailyLimits("gmail")).toEqual({ unitsPerProject: 80_000_000 });
    expect(quota.dailyLimits("drive")).toEqual({
      unitsPerProject: 400_000_000,
      egressBytesPerProject: 1_000_000_000_000,
    });
    expect(quota.dailyLimits("gmail", "old")).toEqual({});
    expect(quota.dailyLimits("drive", "old")).toEqual({});
  });

  test("when a project's Gmail units for the day are used up, then calls are 403 dailyLimitExceeded until the quota day ends at midnight Pacific time", () => {
    const time = clock(beforeMidnightPacific);
    const quota = new QuotaTracker({ projects: { p: { dailyUnits: { gmail: 100 } } } }, time.now, {
      defaultProject: "p",
    });
    for (let call = 0; call < 5; call += 1) quota.begin("gmail.users.messages.get", `u${call}@x.test`)();
    const error = refusal(() => quota.begin("gmail.users.labels.list", "fresh@x.test"));
    expect(error.body()).toEqual({
      error: {
        code: 403,
        message: "Daily Limit Exceeded",
        errors: [{ message: "Daily Limit Exceeded", domain: "usageLimits", reason: "dailyLimitExceeded" }],
        status: "PERMISSION_DENIED",
      },
    });
    // Other APIs and other projects have their own thresholds.
    expect(() => quota.begin("drive.files.get", "a@x.test")()).not.toThrow();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test", { project: "q" })()).not.toThrow();
    expect(quota.report().projects[quota.quotaDay()]?.p?.units.gmail).toBe(100);
    expect(quota.quotaDay()).toBe("2026-11-22");
    time.advance(60_000);
    expect(quota.quotaDay()).toBe("2026-11-23");
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")()).not.toThrow();
  });

  test("when the time scale is 1,440, then a quota day passes in one real minute and the threshold resets", () => {
    const time = clock(beforeMidnightPacific - 23 * 3_600_000);
    const quota = new QuotaTracker(
      { timeScale: 1440, projects: { p: { dailyUnits: { gmail: 20 } } } },
      time.now,
      {
        defaultProject: "p",
      },
    );
    quota.begin("gmail.users.messages.get", "a@x.test")();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow("Daily Limit Exceeded");
    time.advance(60_000);
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")()).not.toThrow();
  });

  test("when a project's Drive egress reaches its daily bytes, then Drive calls are 403 dailyLimitExceeded; Gmail is not", () => {
    const time = clock();
    const quota = new QuotaTracker({}, time.now, { defaultProject: "p" });
    quota.countEgress(999_999_999_999);
    expect(() => quota.begin("drive.files.download", "a@x.test")()).not.toThrow();
    quota.countEgress(1);
    expect(refusal(() => quota.begin("drive.files.download", "a@x.test")).reason).toBe("dailyLimitExceeded");
    expect(refusal(() => quota.begin("drive.files.list", "b@x.test")).reason).toBe("dailyLimitExceeded");
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")()).not.toThrow();
    expect(quota.report().projects[quota.quotaDay()]?.p?.driveEgressBytes).toBe(1_000_000_000_000);
    time.advance(24 * 3_600_000);
    expect(() => quota.begin("drive.files.download", "a@x.test")()).not.toThrow();
  });

  test("when a user uploaded 750 GB to Drive today, then their new uploads are 403 userRateLimitExceeded; reads and other users are not", () => {
    const time = clock();
    const quota = new QuotaTracker({}, time.now);
    quota.countUpload("a@x.test", 749_999_999_999);
    expect(() => quota.begin("drive.files.create", "a@x.test", { upload: true })()).not.toThrow();
    quota.countUpload("a@x.test", 1);
    const error = refusal(() => quota.begin("drive.files.create", "a@x.test", { upload: true }));
    expect(error).toMatchObject({ code: 403, reason: "userRateLimitExceeded", domain: "usageLimits" });
    expect(error.message).toBe("User rate limit exceeded.");
    expect(() => quota.begin("drive.files.get", "a@x.test")()).not.toThrow();
    expect(() => quota.begin("drive.files.create", "b@x.test", { upload: true })()).not.toThrow();
    expect(quota.report().driveUploads[quota.quotaDay()]?.["a@x.test"]).toBe(750_000_000_000);
    time.advance(24 * 3_600_000);
    expect(() => quota.begin("drive.files.create", "a@x.test", { upload: true })()).not.toThrow();
  });

  test("when a project lowers a threshold, then that applies; raising one above the model's is refused", () => {
    const quota = new QuotaTracker();
    quota.configure({ projects: { p: { dailyUnits: { drive: 1000 }, driveEgressBytesPerDay: 5000 } } });
    expect(quota.dailyLimits("drive", "p")).toEqual({ unitsPerProject: 1000, egressBytesPerProject: 5000 });
    expect(() => quota.configure({ projects: { p: { dailyUnits: { gmail: 80_000_001 } } } })).toThrow(
      "dailyUnits.gmail",
    );
    expect(() => quota.configure({ projects: { p: { driveEgressBytesPerDay: 2e12 } } })).toThrow(
      "driveEgressBytesPerDay",
    );
    quota.configure({ projects: { p: null } });
    expect(quota.settings.projects).toEqual({});
  });
});

describe("quota model per Google Cloud project", () => {
  test("when a project active before 2026 keeps the legacy model, then its calls cost legacy units while new projects pay 2026 units", () => {
    const quota = new QuotaTracker({ projects: { old: { model: "legacy" } } }, clock().now, {
      defaultProject: "new",
    });
    expect(quota.cost("gmail.users.messages.get")).toBe(20);
    expect(quota.cost("gmail.users.messages.get", "old")).toBe(5);
    expect(quota.modelOf("old")).toBe("legacy");
    // 15,000 legacy units a minute: 3,000 messages.get for the old project's user, 300 for the new one's.
    for (let call = 0; call < 3000; call += 1)
      quota.begin("gmail.users.messages.get", "a@x.test", { project: "old" })();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test", { project: "old" })).toThrow(
      GoogleApiError,
    );
    for (let call = 0; call < 300; call += 1) quota.begin("gmail.users.messages.get", "a@x.test")();
    expect(() => quota.begin("gmail.users.messages.get", "a@x.test")).toThrow(GoogleApiError);
  });

  test("when the emulator-wide model changes, then projects without their own follow it and the others keep theirs", () => {
    const quota = new QuotaTracker({ projects: { pinned: { model: "2026" } } });
    quota.configure({ model: "legacy" });
    expect(quota.modelOf()).toBe("legacy");
    expect(quota.modelOf("pinned")).toBe("2026");
    expect(() => quota.configure({ projects: { x: { model: "2030" as "legacy" } } })).toThrow("model");
  });
});
