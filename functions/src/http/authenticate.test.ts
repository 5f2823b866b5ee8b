import { Router } from "express";
import request from "supertest";
import { createApi } from "./app";
import { AUTH_MESSAGES } from "@alpvault/contracts/errors";
import type { RefusedAttempt } from "../lib/caller";
import { callerFrom, type AppCheckVerifier, type VerifiedIdToken } from "./authenticate";

const GOOGLE_ADMIN: VerifiedIdToken = {
  uid: "uid-1",
  email: "Admin@Example.test",
  emailVerified: true,
  signInProvider: "google.com",
  googleSub: "108",
  hostedDomain: null,
};

describe("callerFrom", () => {
  test("when the token is a verified Google sign-in, then it is the caller, with the address in lower case", () => {
    expect(callerFrom(GOOGLE_ADMIN, "app-1")).toEqual({
      caller: {
        uid: "uid-1",
        email: "admin@example.test",
        googleSub: "108",
        displayName: null,
        pictureUrl: null,
        authTime: null,
        appId: "app-1",
      },
    });
  });

  test.each([
    ["an e-mail/password sign-in", { signInProvider: "password", googleSub: null }, AUTH_MESSAGES.notGoogle],
    [
      "a password sign-in of an account that also has Google linked",
      { signInProvider: "password" },
      AUTH_MESSAGES.notGoogle,
    ],
    ["a custom-token sign-in", { signInProvider: "custom", googleSub: null }, AUTH_MESSAGES.notGoogle],
    [
      "an anonymous sign-in",
      { signInProvider: "anonymous", email: null, googleSub: null },
      AUTH_MESSAGES.notGoogle,
    ],
    ["a token without a sign-in provider", { signInProvider: null }, AUTH_MESSAGES.notGoogle],
    ["a Google sign-in without an address", { email: null }, AUTH_MESSAGES.noEmail],
    [
      "a Google sign-in whose address is not verified",
      { emailVerified: false },
      AUTH_MESSAGES.unverifiedEmail,
    ],
    [
      "a Google sign-in of another Workspace domain",
      { hostedDomain: "other.test" },
      AUTH_MESSAGES.foreignDomain,
    ],
  ])("when the token is %s, then it is refused with a clear reason", (_case, change, reason) => {
    expect(callerFrom({ ...GOOGLE_ADMIN, ...change }, "app-1")).toEqual({ refusal: reason });
  });

  test("when the token names the address's own Workspace domain (any case), then it is the caller", () => {
    expect(callerFrom({ ...GOOGLE_ADMIN, hostedDomain: "EXAMPLE.test" }, "app-1").caller?.email).toBe(
      "admin@example.test",
    );
  });
});

describe("authenticate with a token that is not a verified Google sign-in", () => {
  const appCheck: AppCheckVerifier = { verifyAppCheckToken: async () => ({ appId: "app-1" }) };
  const reached: string[] = [];
  const refused: RefusedAttempt[] = [];

  function api(
    token: VerifiedIdToken,
    onRefused = async (attempt: RefusedAttempt) => void refused.push(attempt),
  ) {
    const router = Router();
    router.all("/{*rest}", (req, res) => {
      reached.push(req.path);
      res.json({ ok: true });
    });
    return createApi({
      identity: { verifyIdToken: async () => token },
      appCheck,
      onRefused,
      routers: [router],
    });
  }

  const send = (app: ReturnType<typeof api>, method: "get" | "delete", path: string) =>
    request(app)[method](path).set("Authorization", "Bearer token").set("X-Firebase-AppCheck", "app-check");

  beforeEach(() => {
    reached.length = 0;
    refused.length = 0;
  });

  test("when an e-mail/password account calls an organisation's route, then 403, no route runs, and the attempt is reported with the organisation", async () => {
    const password = { ...GOOGLE_ADMIN, signInProvider: "password", googleSub: null };
    const answer = await send(api(password), "delete", "/v1/organizations/org-B_1/secrets/key-1");
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ code: 403, message: AUTH_MESSAGES.notGoogle });
    expect(reached).toEqual([]);
    expect(refused).toEqual([
      {
        organizationId: "org-B_1",
        uid: "uid-1",
        claimedEmail: "Admin@Example.test",
        signInProvider: "password",
        method: "DELETE",
        path: "/organizations/org-B_1/secrets/key-1",
        reason: AUTH_MESSAGES.notGoogle,
      },
    ]);
  });

  test("when an unverified Google address calls a route outside any organisation, then 403 and the attempt names none", async () => {
    const answer = await send(api({ ...GOOGLE_ADMIN, emailVerified: false }), "get", "/v1/installation");
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ code: 403, message: AUTH_MESSAGES.unverifiedEmail });
    expect(reached).toEqual([]);
    expect(refused).toMatchObject([{ organizationId: null, path: "/installation" }]);
  });

  test("when reporting the attempt fails, then the answer is still the 403", async () => {
    const failing = api({ ...GOOGLE_ADMIN, emailVerified: false }, async () => {
      throw new Error("audit log unavailable");
    });
    const answer = await send(failing, "get", "/v1/organizations/org-1");
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ code: 403, message: AUTH_MESSAGES.unverifiedEmail });
    expect(reached).toEqual([]);
  });

  test("when the token is a verified Google sign-in, then the route runs and nothing is reported", async () => {
    const answer = await send(api(GOOGLE_ADMIN), "get", "/v1/organizations/org-1");
    expect(answer.status).toBe(200);
    expect(reached).toEqual(["/organizations/org-1"]);
    expect(refused).toEqual([]);
  });
});
