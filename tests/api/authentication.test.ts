/**
 * Every /v1 route requires a valid App Check token and a valid Firebase ID token; failures are 401 with
 * the `{code, message}` error object. Calls go through Hosting's `/v1/**` rewrite, as the web's do.
 */
import { APP_VERSION } from "@alpvault/contracts/version";
import { appCheckToken, callApi } from "../support/api-client";
import {
  disableUser,
  newGoogleIdentity,
  signInWithGoogle,
  type SignedInUser,
} from "../support/auth-emulator";

function expectApiError(answer: { status: number; body: unknown }, code: number, message: RegExp): void {
  expect(answer.status).toBe(code);
  expect(answer.body).toEqual({ code, message: expect.stringMatching(message) });
}

function base64Url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

describe("GET /v1/health authentication", () => {
  let user: SignedInUser;

  beforeAll(async () => {
    user = await signInWithGoogle(newGoogleIdentity("health"));
  });

  test("when the ID token and the App Check token are valid, then the API answers with its status and the caller", async () => {
    const answer = await callApi("/health", { idToken: user.idToken, appCheck: appCheckToken() });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/application\/json/);
    expect(answer.body).toEqual({
      status: "ok",
      version: APP_VERSION,
      user: { uid: user.uid, email: user.email },
    });
  });

  test("when the App Check header is missing, then 401 with {code, message}", async () => {
    expectApiError(await callApi("/health", { idToken: user.idToken }), 401, /App Check token required/);
  });

  const forgedSignedToken = (): string => {
    const [, payload] = appCheckToken().split(".");
    return `${base64Url({ alg: "RS256", typ: "JWT" })}.${payload}.c2lnbmF0dXJl`;
  };

  test.each([
    ["is not a token at all", () => "garbage"],
    ["was minted for another app", () => appCheckToken({ appId: "1:000000000000:web:another-app" })],
    ["was minted for another project", () => appCheckToken({ projectId: "demo-someone-else" })],
    ["has expired", () => appCheckToken({ nowSeconds: Math.floor(Date.now() / 1000) - 7200 })],
    ["claims a signature algorithm (the unsigned check refuses it)", forgedSignedToken],
  ])("when the App Check token %s, then 401 with {code, message}", async (_case, token) => {
    const answer = await callApi("/health", { idToken: user.idToken, appCheck: token() });
    expectApiError(answer, 401, /App Check token is invalid/);
  });

  test("when the Authorization header is missing, then 401 with {code, message}", async () => {
    expectApiError(await callApi("/health", { appCheck: appCheckToken() }), 401, /Authentication required/);
  });

  test("when the Authorization header is not a bearer token, then 401", async () => {
    const answer = await callApi("/health", {
      appCheck: appCheckToken(),
      headers: { authorization: `Basic ${user.idToken}` },
    });
    expectApiError(answer, 401, /Authentication required/);
  });

  test("when the ID token is invalid, then 401 with {code, message}", async () => {
    expectApiError(
      await callApi("/health", { idToken: "not-a-token", appCheck: appCheckToken() }),
      401,
      /ID token is invalid/,
    );
  });

  test("when the ID token has been tampered with, then 401", async () => {
    const [header, payload] = user.idToken.split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<string, unknown>;
    const tampered = `${header}.${base64Url({ ...claims, aud: "demo-someone-else" })}.`;
    expectApiError(
      await callApi("/health", { idToken: tampered, appCheck: appCheckToken() }),
      401,
      /ID token is invalid/,
    );
  });

  test("when the user has been disabled, then their still-unexpired ID token is refused with 401", async () => {
    const disabled = await signInWithGoogle(newGoogleIdentity("disabled"));
    await disableUser(disabled.uid);
    expectApiError(
      await callApi("/health", { idToken: disabled.idToken, appCheck: appCheckToken() }),
      401,
      /ID token is invalid/,
    );
  });

  test("when an authenticated caller asks for an unknown route, then 404 with {code, message}", async () => {
    const answer = await callApi("/no-such-route", { idToken: user.idToken, appCheck: appCheckToken() });
    expectApiError(answer, 404, /No such API route: GET \/v1\/no-such-route/);
  });

  test("when an unauthenticated caller asks for an unknown route, then 401 (routes are not disclosed)", async () => {
    expectApiError(await callApi("/no-such-route"), 401, /App Check token required/);
  });
});
