import { classifyGoogleError, googleErrorFacts, parseRetryAfter } from "./errors";

function apiError(status: number, reason?: string, message = "m"): unknown {
  return {
    response: {
      status,
      headers: {},
      data: {
        error: { code: status, message, errors: reason ? [{ reason, domain: "global", message }] : [] },
      },
    },
  };
}

function tokenError(status: number, error: string): unknown {
  return { response: { status, data: { error, error_description: "Client is unauthorized" } } };
}

describe("classifyGoogleError", () => {
  it.each([
    [429, "rateLimitExceeded"],
    [403, "rateLimitExceeded"],
    [403, "userRateLimitExceeded"],
    [403, "quotaExceeded"],
  ])("when Google answers %i %s, then it is retried even for a POST (not executed)", (status, reason) => {
    expect(classifyGoogleError(apiError(status, reason))).toEqual({
      kind: "retry",
      reason: "google-api-error",
      status,
      googleReason: reason,
      notExecuted: true,
    });
  });

  it.each([500, 502, 503, 504, 408])(
    "when Google answers %i, then it is retried (idempotent only)",
    (status) => {
      const result = classifyGoogleError(apiError(status, "backendError"));
      expect(result).toMatchObject({ kind: "retry", reason: "google-api-error", status });
      expect(result.notExecuted).toBeUndefined();
    },
  );

  it.each([
    [404, "notFound"],
    [403, "cannotDownloadAbusiveFile"],
    [403, "fileNotDownloadable"],
    [403, "exportSizeLimitExceeded"],
    [400, "invalidArgument"],
    [400, "badRequest"],
  ])("when Google answers %i %s, then it is an error of that item only", (status, reason) => {
    expect(classifyGoogleError(apiError(status, reason))).toEqual({
      kind: "item",
      status,
      googleReason: reason,
    });
  });

  it.each([
    [401, "authError"],
    [403, "insufficientPermissions"],
    [403, "dailyLimitExceeded"],
    [403, "domainPolicy"],
    [400, "failedPrecondition"],
  ])("when Google answers %i %s, then the run fails with google-api-error", (status, reason) => {
    expect(classifyGoogleError(apiError(status, reason))).toEqual({
      kind: "fatal",
      reason: "google-api-error",
      status,
      googleReason: reason,
    });
  });

  it.each([
    [401, "unauthorized_client"],
    [400, "invalid_grant"],
  ])(
    "when the token endpoint answers %i %s (app uninstalled, scopes revoked), then the run fails",
    (s, e) => {
      expect(classifyGoogleError(tokenError(s, e))).toEqual({
        kind: "fatal",
        reason: "google-api-error",
        status: s,
        googleReason: e,
      });
    },
  );

  it("when the connection is reset, then it is retried (idempotent only)", () => {
    const reset = Object.assign(new Error("fetch failed"), {
      cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
    });
    expect(classifyGoogleError(reset)).toEqual({
      kind: "retry",
      reason: "google-api-error",
      status: 0,
      googleReason: "ECONNRESET",
      notExecuted: false,
    });
  });

  it("when the connection is refused, then it is retried even for a POST (never sent)", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(classifyGoogleError(refused)).toMatchObject({ kind: "retry", notExecuted: true });
  });

  it("when the error is not an HTTP or network error, then the run fails with unknown-error", () => {
    expect(classifyGoogleError(new TypeError("undefined is not a function"))).toEqual({
      kind: "fatal",
      reason: "unknown-error",
      status: 0,
    });
  });
});

describe("googleErrorFacts", () => {
  it("when Gmail's message says 'Retry after <date>', then the wait is read from it", () => {
    const now = Date.parse("2026-01-01T00:00:00.000Z");
    const facts = googleErrorFacts(
      apiError(429, "rateLimitExceeded", "User-rate limit exceeded.  Retry after 2026-01-01T00:00:02.500Z"),
      now,
    );
    expect(facts.retryAfterMs).toBe(2_500);
  });

  it("when a Retry-After header is an HTTP date or seconds, then both are understood", () => {
    const now = Date.parse("2026-01-01T00:00:00.000Z");
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("when the body came as text (stream responses), then the reason is still read", () => {
    const body = (apiError(403, "fileNotDownloadable") as { response: { data: unknown } }).response.data;
    const facts = googleErrorFacts({ response: { status: 403, data: JSON.stringify(body) } });
    expect(facts).toEqual({ status: 403, googleReason: "fileNotDownloadable" });
  });
});
