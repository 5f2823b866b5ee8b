/**
 * Signs users in against the Auth emulator over its REST API (the identitytoolkit protocol the Firebase
 * client SDKs use), the way a Google sign-in does: an IdP id_token for google.com.
 */
import { randomUUID } from "node:crypto";
import { stackEnv } from "./stack-env";

export interface GoogleIdentity {
  sub: string;
  email: string;
  name?: string;
  /** What Google says of the address (default: verified). */
  emailVerified?: boolean;
}

export interface SignedInUser {
  uid: string;
  idToken: string;
  refreshToken: string;
  email: string;
}

const API_KEY = "demo-key";

function authUrl(path: string): string {
  return `http://${stackEnv.authEmulatorHost}/identitytoolkit.googleapis.com/v1/${path}?key=${API_KEY}`;
}

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export function newGoogleIdentity(label = "user"): GoogleIdentity {
  const id = randomUUID();
  return {
    sub: `sub-${id}`,
    email: `${label}-${id.slice(0, 8)}@tests.alpine-demo.example`,
    name: `Test ${label}`,
  };
}

/** Signs in with Google through the emulator (creating the account on first sign-in). */
export async function signInWithGoogle(identity: GoogleIdentity): Promise<SignedInUser> {
  const idToken = JSON.stringify({
    sub: identity.sub,
    email: identity.email,
    email_verified: identity.emailVerified ?? true,
    name: identity.name,
  });
  const answer = await postJson<{ localId: string; idToken: string; refreshToken: string; email: string }>(
    authUrl("accounts:signInWithIdp"),
    {
      postBody: `id_token=${encodeURIComponent(idToken)}&providerId=google.com`,
      requestUri: "http://localhost",
      returnIdpCredential: true,
      returnSecureToken: true,
    },
  );
  return {
    uid: answer.localId,
    idToken: answer.idToken,
    refreshToken: answer.refreshToken,
    email: answer.email,
  };
}

/**
 * Creates an e-mail/password account (`accounts:signUp`) and returns it signed in: anyone can claim any
 * address this way, which Google sign-in does not allow.
 */
export async function signUpWithPassword(email: string, password: string): Promise<SignedInUser> {
  const answer = await postJson<{ localId: string; idToken: string; refreshToken: string; email: string }>(
    authUrl("accounts:signUp"),
    { email, password, returnSecureToken: true },
  );
  return {
    uid: answer.localId,
    idToken: answer.idToken,
    refreshToken: answer.refreshToken,
    email: answer.email,
  };
}

/** Disables an account the way an admin would (emulator accepts `Bearer owner` for admin calls). */
export async function disableUser(uid: string): Promise<void> {
  await postJson(
    `http://${stackEnv.authEmulatorHost}/identitytoolkit.googleapis.com/v1/projects/${stackEnv.projectId}/accounts:update`,
    { localId: uid, disableUser: true },
    { authorization: "Bearer owner" },
  );
}
