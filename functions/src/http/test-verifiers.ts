/**
 * Verifiers for tests of the HTTP layer (not used by the product): each accepts exactly one ID token and one
 * App Check token, as the real ones accept exactly valid tokens, and answers a verified Google account.
 */
import type { AppCheckVerifier, IdentityVerifier } from "./authenticate";

export const TEST_ID_TOKEN = "id-token-secret-value";
export const TEST_APP_CHECK_TOKEN = "app-check-secret-value";

export function testVerifiers(): { identity: IdentityVerifier; appCheck: AppCheckVerifier } {
  return {
    identity: {
      async verifyIdToken(token) {
        if (token !== TEST_ID_TOKEN) throw new Error("invalid");
        return {
          uid: "user-1",
          email: "anna@example.com",
          emailVerified: true,
          signInProvider: "google.com",
          googleSub: "sub-1",
          hostedDomain: null,
        };
      },
    },
    appCheck: {
      async verifyAppCheckToken(token) {
        if (token !== TEST_APP_CHECK_TOKEN) throw new Error("invalid");
        return { appId: "app-1" };
      },
    },
  };
}
