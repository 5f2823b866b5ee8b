import { Router } from "express";
import request from "supertest";
import { logger } from "firebase-functions";
import { DomainError, type ErrorKind } from "../lib/errors";
import { StoredDocumentError } from "../lib/stored";
import { createApi } from "./app";
import { TEST_APP_CHECK_TOKEN, TEST_ID_TOKEN, testVerifiers } from "./test-verifiers";

const ID_TOKEN = TEST_ID_TOKEN;
const APP_CHECK = TEST_APP_CHECK_TOKEN;
const { identity, appCheck } = testVerifiers();

function testRoutes(): Router {
  const router = Router();
  router.get("/boom", () => {
    throw new Error("database password is hunter2");
  });
  router.get("/stored", () => {
    throw new StoredDocumentError("policy", "organizations/o1/policies/p1", ["retentionDays"]);
  });
  router.get("/conflict", () => {
    throw DomainError.conflict("Another recovery for the same resource is in progress.");
  });
  router.get("/kind/:kind", (req) => {
    throw new DomainError(req.params.kind as ErrorKind, `A ${req.params.kind} failure.`, {
      cause: "hidden cause",
    });
  });
  router.post("/echo", (req, res) => {
    res.json({ received: req.body as unknown });
  });
  return router;
}

function api(routers: Router[] = [testRoutes()]) {
  return createApi({ identity, appCheck, routers, onRefused: () => Promise.resolve() });
}

function authed(test: request.Test): request.Test {
  return test.set("Authorization", `Bearer ${ID_TOKEN}`).set("X-Firebase-AppCheck", APP_CHECK);
}

describe("API error handling", () => {
  test("when a route throws an unknown error, then 500 'Unexpected error occurred' without internals", async () => {
    const answer = await authed(request(api()).get("/v1/boom"));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ code: 500, message: "Unexpected error occurred" });
    expect(answer.text).not.toContain("hunter2");
  });

  test("when a stored document does not decode, then 500 'Unexpected error occurred' without its path", async () => {
    const answer = await authed(request(api()).get("/v1/stored"));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ code: 500, message: "Unexpected error occurred" });
    expect(answer.text).not.toContain("organizations/o1");
  });

  test("when a route throws a DomainError, then its kind gives the HTTP status and the body is {code, message}", async () => {
    const answer = await authed(request(api()).get("/v1/conflict"));
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      code: 409,
      message: "Another recovery for the same resource is in progress.",
    });
  });

  test.each([
    ["invalid", 400],
    ["unauthenticated", 401],
    ["forbidden", 403],
    ["not-found", 404],
    ["conflict", 409],
    ["too-large", 413],
    ["unsupported-format", 415],
    ["misdirected", 421],
    ["unavailable", 503],
  ])(
    "when a route throws a %s DomainError, then the answer is %i with {code, message} and no cause",
    async (kind, status) => {
      const answer = await authed(request(api()).get(`/v1/kind/${kind}`));
      expect(answer.status).toBe(status);
      expect(answer.text).toBe(JSON.stringify({ code: status, message: `A ${kind} failure.` }));
    },
  );

  test("when an authenticated body is not valid JSON, then 400 with {code, message}", async () => {
    const answer = await authed(request(api()).post("/v1/echo"))
      .set("content-type", "application/json")
      .send("{not json");
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, message: "The request body is not valid JSON." });
  });

  test("when a body is larger than 1 MB, then 413 with {code, message}", async () => {
    const answer = await authed(request(api()).post("/v1/echo"))
      .set("content-type", "application/json")
      .send(JSON.stringify({ blob: "x".repeat(1_100_000) }));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ code: 413, message: "The request body is too large." });
  });

  test("when a valid JSON body is sent, then the route receives it parsed", async () => {
    const answer = await authed(request(api()).post("/v1/echo")).send({ a: 1 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: { a: 1 } });
  });

  test("when a path is outside /v1, then 404 with {code, message}", async () => {
    const answer = await request(api()).get("/elsewhere");
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ code: 404, message: "No such API route: GET /elsewhere" });
  });
});

describe("request logging", () => {
  const lines: unknown[][] = [];

  beforeEach(() => {
    lines.length = 0;
    for (const level of ["info", "warn", "error", "debug", "log", "write"] as const) {
      jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
        lines.push(args);
      });
    }
  });

  afterEach(() => jest.restoreAllMocks());

  test("when requests succeed, fail authentication or crash, then no token, query or secret reaches the logs", async () => {
    await authed(request(api()).get("/v1/boom?q=subject-of-a-private-mail"));
    await request(api())
      .get("/v1/conflict")
      .set("Authorization", "Bearer wrong-token-value")
      .set("X-Firebase-AppCheck", APP_CHECK);
    await authed(request(api()).get("/v1/conflict"));
    const logged = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const secret of [ID_TOKEN, APP_CHECK, "wrong-token-value", "subject-of-a-private-mail"]) {
      expect(logged).not.toContain(secret);
    }
  });

  test("when a request completes, then one line names the matched route pattern, status and caller", async () => {
    await authed(request(api()).get("/v1/conflict"));
    const completed = lines.find(([message]) => message === "request completed");
    expect(completed?.[1]).toMatchObject({
      method: "GET",
      route: "/v1/conflict",
      status: 409,
      uid: "user-1",
    });
  });
});
