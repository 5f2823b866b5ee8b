import { STORAGE_NAMESPACE } from "@/config/constants";

/**
 * Browser storage entries of the session (docs/requirements.md#data-the-console-shows). Failures are logged only: the app keeps working
 * without them.
 */
export const SESSION_KEYS = {
  /** The bot-check (App Check) token, written when the auth state becomes signed in (docs/requirements.md#states-and-flows). */
  authToken: `${STORAGE_NAMESPACE}:authToken`,
  /**
   * The stored auth token that marks the session as connected (docs/requirements.md#screens-and-navigation):
   * written by a sign-in on this browser, removed by logout. It is an opaque value bound to the signed-in
   * user, not a credential: a browser whose token is gone (logout elsewhere, cleared storage) is signed
   * out on its next start, whatever the identity provider still remembers.
   */
  storedAuthToken: `${STORAGE_NAMESPACE}:storedAuthToken`,
  email: `${STORAGE_NAMESPACE}:email`,
  displayName: `${STORAGE_NAMESPACE}:displayName`,
  organizationId: `${STORAGE_NAMESPACE}:organizationId`,
  /** Whether the signed-in user finished onboarding, as last computed by the connecting sequence. */
  onboardingComplete: `${STORAGE_NAMESPACE}:onboardingComplete`,
} as const;

export type SessionKey = keyof typeof SESSION_KEYS;

/**
 * The entries logout clears (docs/requirements.md#states-and-flows): the stored auth token, email, display name and organisation
 * id; the App Check token goes with them.
 */
const LOGOUT_KEYS: readonly SessionKey[] = [
  "storedAuthToken",
  "authToken",
  "email",
  "displayName",
  "organizationId",
];

export function writeSessionEntry(key: SessionKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(SESSION_KEYS[key]);
    else window.localStorage.setItem(SESSION_KEYS[key], value);
  } catch (error) {
    console.warn(`Session entry ${key} could not be stored`, error);
  }
}

export function readSessionEntry(key: SessionKey): string | null {
  try {
    return window.localStorage.getItem(SESSION_KEYS[key]);
  } catch (error) {
    console.warn(`Session entry ${key} could not be read`, error);
    return null;
  }
}

export function clearSession(): void {
  for (const key of LOGOUT_KEYS) writeSessionEntry(key, null);
}

/** Marks the session of `userId` as connected on this browser (after a sign-in here). */
export function storeAuthToken(userId: string): void {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
  writeSessionEntry("storedAuthToken", `${userId}.${random}`);
}

/** True when the stored auth token marks a session of `userId` on this browser. */
export function hasStoredAuthToken(userId: string): boolean {
  return readSessionEntry("storedAuthToken")?.startsWith(`${userId}.`) ?? false;
}
