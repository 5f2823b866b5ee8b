/**
 * The fake API of component tests, through the web's real API client: answers are checked against the
 * contract before they are sent, failures arrive as the client's `{code, message}` errors, and requests
 * are recorded as sent.
 */
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { secretsResponseSchema } from "@alpvault/contracts/schemas/secrets";
import { api, ApiError } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { installFakeApi, type FakeApi } from "./fake-api";
import { anInstallation } from "./fixtures/session";

const SECRETS = "GET /organizations/:organizationId/secrets";
const secrets = {
  secrets: [
    {
      secretId: "default",
      description: "Alpvault default key (AES-256)",
      kind: "default" as const,
      kmsResourceName: null,
      isDefault: true,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: null,
      lastCheck: null,
    },
  ],
  planId: "geneva" as const,
};

let fake: FakeApi;
beforeEach(() => {
  fake = installFakeApi();
});

/** The error a call rejects with. */
async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`Expected an ApiError, got ${String(error)}`);
  return error;
}

describe("fake API answers", () => {
  it("when a route is answered with a value that fits its schema, then the client decodes it", async () => {
    fake.answer(SECRETS, secrets);
    const answer = decodeAnswer(
      secretsResponseSchema,
      await api.get<unknown>("/organizations/org-1/secrets"),
    );
    expect(answer.secrets[0]?.description).toBe("Alpvault default key (AES-256)");
  });

  it("when a test gives an answer off its schema, then giving it fails at once", () => {
    expect(() =>
      fake.answer(SECRETS, { ...secrets, planId: "everest" } as unknown as typeof secrets),
    ).toThrow(/does not fit its schema/);
  });

  it("when an answer computed per request is off its schema, then the test fails after it", async () => {
    fake.answer(SECRETS, () => ({ secrets: [], planId: 7 }) as unknown as typeof secrets);
    const error = await failureOf(api.get("/organizations/org-1/secrets"));
    expect(error.code).toBe(500);
    expect(() => fake.assertNoViolations()).toThrow(/does not fit its schema/);
  });

  it("when the screen calls a route the contract does not list, or one without an answer, then the test fails", async () => {
    await failureOf(api.get("/organizations/org-1/unknown"));
    await failureOf(api.get("/organizations/org-1/secrets"));
    expect(() => fake.assertNoViolations()).toThrow(
      /GET \/organizations\/org-1\/unknown: no such route[\s\S]*secrets: called, but the test gave no answer/,
    );
  });
});

describe("fake API failures", () => {
  it("when a route fails with {code, message}, then the client rejects with that code and message", async () => {
    fake.fail(SECRETS, { code: 409, message: "The key is in use." });
    const error = await failureOf(api.get("/organizations/org-1/secrets"));
    expect({ code: error.code, message: error.message }).toEqual({
      code: 409,
      message: "The key is in use.",
    });
  });

  it("when the message is empty, then the client's error has the empty message", async () => {
    fake.fail(SECRETS, { code: 500, message: "" });
    expect((await failureOf(api.get("/organizations/org-1/secrets"))).message).toBe("");
  });

  it("when the answer is not JSON or the network fails, then the client rejects with the unexpected error", async () => {
    fake.failNotJson(SECRETS);
    const notJson = await failureOf(api.get("/organizations/org-1/secrets"));
    fake.failNetwork(SECRETS);
    const network = await failureOf(api.get("/organizations/org-1/secrets"));
    for (const error of [notJson, network]) {
      expect({ code: error.code, message: error.message }).toEqual(UNEXPECTED_ERROR);
    }
  });

  it("when an error is not {code, message}, then giving it fails at once", () => {
    expect(() => fake.fail(SECRETS, { code: 200, message: "fine" })).toThrow(/not \{code, message\}/);
  });
});

describe("fake API requests", () => {
  it("when a call is sent, then its method, host, path, parameters, repeated query keys, body and tokens are recorded", async () => {
    fake.answer("PUT /organizations/:organizationId/settings/auto-add-storage", { autoAddStorage: true });
    await api.put(
      "/organizations/org%201/settings/auto-add-storage",
      { enabled: true },
      {
        baseUrl: "http://ch.api.alpvault.test/v1",
        query: { fields: ["plan", "seats"] },
      },
    );
    const request = fake.lastRequest("PUT /organizations/:organizationId/settings/auto-add-storage");
    expect(request).toMatchObject({
      method: "PUT",
      host: "ch.api.alpvault.test",
      path: "/organizations/org%201/settings/auto-add-storage",
      params: { organizationId: "org 1" },
      query: { fields: ["plan", "seats"] },
      body: { enabled: true },
    });
    expect(request.headers.authorization).toBe("Bearer test-id-token");
  });

  it("when a route is held, then its calls wait until the test releases them, and get the answer of that time", async () => {
    fake.answer("GET /installation", anInstallation("not-installed"));
    const held = fake.hold("GET /installation");
    let answered = false;
    const call = api.get<{ hasGWInstalled: boolean }>("/installation").then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    expect(held.arrived).toBe(1);
    fake.answer("GET /installation", anInstallation("complete"));
    held.release();
    expect((await call).hasGWInstalled).toBe(true);
  });

  it("when a held call is aborted, then it rejects as aborted", async () => {
    fake.answer("GET /installation", anInstallation());
    fake.hold("GET /installation");
    const controller = new AbortController();
    const call = api.get("/installation", { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
  });
});
