import { Router } from "express";
import request from "supertest";
import { createApi } from "./app";
import { BODY_MAX_DEPTH, BODY_MESSAGES, bodyShapeProblem } from "./body";
import { TEST_APP_CHECK_TOKEN, TEST_ID_TOKEN, testVerifiers } from "./test-verifiers";

function api() {
  const router = Router();
  router.post("/echo", (req, res) => {
    res.json({ received: req.body as unknown });
  });
  router.get("/items/:id", (req, res) => {
    res.json({ id: req.params.id });
  });
  return createApi({
    ...testVerifiers(),
    onRefused: () => Promise.resolve(),
    routers: [router],
  });
}

const authed = (test: request.Test) =>
  test.set("Authorization", `Bearer ${TEST_ID_TOKEN}`).set("X-Firebase-AppCheck", TEST_APP_CHECK_TOKEN);

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

describe("bodyShapeProblem", () => {
  test("when a body is an ordinary request, then nothing is wrong with it", () => {
    expect(bodyShapeProblem({ name: "Gold ✓ 😀", days: [1, 2], nested: { ok: true, none: null } })).toBe(
      undefined,
    );
    expect(bodyShapeProblem(nested(BODY_MAX_DEPTH - 1))).toBe(undefined);
  });

  test.each([
    ["nested 5,000 deep", nested(5000), BODY_MESSAGES.tooDeep],
    [
      "an array nested 5,000 deep",
      JSON.parse(`${"[".repeat(5000)}${"]".repeat(5000)}`),
      BODY_MESSAGES.tooDeep,
    ],
    ["a __proto__ key", JSON.parse('{"a": {"__proto__": {"admin": true}}}'), BODY_MESSAGES.forbiddenKey],
    ["a constructor key", { constructor: { prototype: {} } }, BODY_MESSAGES.forbiddenKey],
    ["a lone surrogate in a value", { name: "x\ud800y" }, BODY_MESSAGES.notUnicode],
    ["a lone low surrogate in a key", { ["\udc00"]: 1 }, BODY_MESSAGES.notUnicode],
    ["a lone surrogate in an array", ["ok", "\udbff"], BODY_MESSAGES.notUnicode],
  ])("when a body has %s, then that is the problem", (_case, body, problem) => {
    expect(bodyShapeProblem(body)).toBe(problem);
  });
});

describe("request bodies through the API", () => {
  test("when a body is nested 5,000 deep, then 400 with {code, message} and no crash", async () => {
    const answer = await authed(request(api()).post("/v1/echo"))
      .set("content-type", "application/json")
      .send(`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, message: BODY_MESSAGES.tooDeep });
  });

  test("when a body is a form or text instead of JSON, then 415 with {code, message}", async () => {
    for (const [type, text] of [
      ["application/x-www-form-urlencoded", "a[b]=1"],
      ["text/plain", "hello"],
      ["application/octet-stream", "\u0000\u0001"],
    ]) {
      const answer = await authed(request(api()).post("/v1/echo")).set("content-type", type!).send(text);
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({ code: 415, message: BODY_MESSAGES.notJson });
    }
  });

  test("when a POST has no body, then the route receives an empty object", async () => {
    const answer = await authed(request(api()).post("/v1/echo"));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: {} });
  });

  test("when a body declares more than 1 MiB, then 413 before authentication", async () => {
    const answer = await request(api())
      .post("/v1/echo")
      .set("content-type", "application/json")
      .send(JSON.stringify({ blob: "x".repeat(1_100_000) }));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ code: 413, message: BODY_MESSAGES.tooLarge });
  });

  test("when a path parameter is not valid percent-encoding, then 400 with {code, message}", async () => {
    for (const path of ["/v1/items/%E0%A4%A", "/v1/items/%ED%A0%80", "/v1/items/%"]) {
      const answer = await authed(request(api()).get(path));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 400, message: "The request path is not valid." });
    }
  });
});
