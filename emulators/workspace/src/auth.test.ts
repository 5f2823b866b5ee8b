import { createSign, generateKeyPairSync } from "node:crypto";
import { SCOPES } from "./auth";
import {
  TEST_ADMIN,
  TEST_DOMAIN,
  TEST_USER,
  googleError,
  startHarness,
  type Harness,
} from "./testing/harness";

let harness: Harness;

beforeEach(async () => {
  // These tests check tokens and errors, not timing: the latency model is off for this file's emulator.
  harness = await startHarness({ latency: { enabled: false } });
});
afterEach(() => harness.stop());

function signedAssertion(
  claims: Record<string, unknown>,
  privateKey = harness.emulator.oauth.serviceAccount.private_key,
): string {
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256", typ: "JWT" })}.${encode(claims)}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(privateKey).toString("base64url");
  return `${unsigned}.${signature}`;
}

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: harness.emulator.oauth.serviceAccount.client_email,
    sub: TEST_ADMIN,
    scope: SCOPES.directoryUserReadonly,
    aud: "https://oauth2.googleapis.com/token",
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
}

async function exchange(assertion: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${harness.url}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion,
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The token endpoint's `{error, error_description}` when the JWT client's token request fails. */
async function tokenError(subject: string, scopes: string[]): Promise<{ status: number; body: unknown }> {
  try {
    await harness.jwt(subject, scopes).getAccessToken();
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (response) return { status: response.status, body: response.data };
    throw error;
  }
  throw new Error("Expected the token request to fail");
}

describe("OAuth2 token endpoint (JWT bearer, domain-wide delegation)", () => {
  test("when the app is installed and the user is active, then the official JWT client gets a bearer token that works", async () => {
    const token = await harness.jwt(TEST_ADMIN, [SCOPES.directoryUserReadonly]).getAccessToken();
    expect(token.token).toMatch(/^ya29\./);
    const { data } = await harness.directory(TEST_ADMIN).users.get({ userKey: TEST_ADMIN });
    expect(data.isAdmin).toBe(true);
  });

  test("when the token endpoint answers, then it has Google's fields and lifetime", async () => {
    const { status, body } = await exchange(signedAssertion(claims()));
    expect(status).toBe(200);
    expect(body).toEqual({
      access_token: expect.stringMatching(/^ya29\./),
      expires_in: 3599,
      token_type: "Bearer",
    });
  });

  test("when the app is not installed, then delegation is refused with unauthorized_client", async () => {
    expect((await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:uninstall`)).status).toBe(200);
    expect(await tokenError(TEST_ADMIN, [SCOPES.directoryUserReadonly])).toEqual({
      status: 401,
      body: {
        error: "unauthorized_client",
        error_description:
          "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.",
      },
    });
  });

  test("when a requested scope was not granted, then delegation is refused with unauthorized_client", async () => {
    await harness.admin("POST", `/customers/${TEST_DOMAIN}/scopes:revoke`, { scopes: [SCOPES.drive] });
    const failure = await tokenError(TEST_USER, [SCOPES.drive]);
    expect(failure.status).toBe(401);
    expect(failure.body).toMatchObject({ error: "unauthorized_client" });
    // The scopes still granted keep working.
    await expect(harness.jwt(TEST_USER, [SCOPES.gmailReadonly]).getAccessToken()).resolves.toBeDefined();
  });

  test("when the subject is not a user of the installed domain, or is suspended, then the grant is invalid", async () => {
    expect(await tokenError(`nobody@${TEST_DOMAIN}`, [SCOPES.gmailReadonly])).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: "Invalid email or User ID" },
    });
    await harness.admin("PATCH", `/users/${TEST_USER}`, { suspended: true });
    expect((await tokenError(TEST_USER, [SCOPES.gmailReadonly])).body).toMatchObject({
      error: "invalid_grant",
    });
  });

  test("when the subject's domain never installed the app, then delegation is refused", async () => {
    await harness.admin("POST", "/customers", { domain: "other-company.test" });
    await harness.admin("POST", "/users", { email: "boss@other-company.test", isAdmin: true });
    expect((await tokenError("boss@other-company.test", [SCOPES.gmailReadonly])).body).toMatchObject({
      error: "unauthorized_client",
    });
  });

  test("when the assertion is signed by another key, then the signature is refused", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(await exchange(signedAssertion(claims(), pem))).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: "Invalid JWT Signature." },
    });
  });

  test("when the assertion is expired, too long-lived, for another audience or another issuer, then it is refused", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await exchange(signedAssertion(claims({ iat: now - 7200, exp: now - 3600 })));
    expect(expired.status).toBe(400);
    expect(expired.body.error_description).toContain("Token must be a short-lived token");
    const longLived = await exchange(signedAssertion(claims({ exp: now + 7200 })));
    expect(longLived.body.error).toBe("invalid_grant");
    const audience = await exchange(signedAssertion(claims({ aud: "https://example.test/token" })));
    expect(audience.body).toEqual({
      error: "invalid_grant",
      error_description: "Invalid JWT: Failed audience check.",
    });
    const issuer = await exchange(signedAssertion(claims({ iss: "someone@else.iam.gserviceaccount.com" })));
    expect(issuer.status).toBe(401);
    expect(issuer.body.error).toBe("invalid_client");
  });

  test("when the grant type or the scope is missing, then Google's errors come back", async () => {
    const response = await fetch(`${harness.url}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=password",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "unsupported_grant_type" });
    expect((await exchange(signedAssertion(claims({ scope: "" })))).body.error).toBe("invalid_scope");
  });
});

describe("access tokens on API calls", () => {
  test("when a call has no token or an unknown one, then it is 401 with Google's authError body and header", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer ya29.not-a-token" }];
    for (const headers of attempts) {
      const response = await fetch(`${harness.url}/admin/directory/v1/users?customer=my_customer`, {
        headers,
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(await response.json()).toEqual({
        error: {
          code: 401,
          message: expect.stringContaining("Request had invalid authentication credentials."),
          errors: [
            {
              message: expect.any(String),
              domain: "global",
              reason: "authError",
              location: "Authorization",
              locationType: "header",
            },
          ],
          status: "UNAUTHENTICATED",
        },
      });
    }
  });

  test("when the token lacks the API's scopes, then the call is 403 insufficientPermissions", async () => {
    const failure = await googleError(
      harness.directory(TEST_ADMIN, [SCOPES.gmailReadonly]).users.list({ customer: "my_customer" }),
    );
    expect(failure.status).toBe(403);
    expect(failure.reason).toBe("insufficientPermissions");
    expect(failure.message).toBe("Request had insufficient authentication scopes.");
  });

  test("when the app is uninstalled after a token was issued, then that token stops working", async () => {
    const directory = harness.directory(TEST_ADMIN);
    await directory.users.get({ userKey: TEST_ADMIN });
    await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:uninstall`);
    const failure = await googleError(directory.users.get({ userKey: TEST_ADMIN }));
    expect(failure.status).toBe(401);
  });
});
