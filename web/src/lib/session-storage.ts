import { STORAGE_NAMESPACE } from "@/config/constants";

/**
 * Browser storage entries of the session (docs/requirements.md#data-the-console-shows). Failures are logged only: the app keeps working
 * without them.
 */
export const SESSION_KEYS = {
  /** The bot-check (App Check) token, written when the auth state becomes signed in (docs/requirements.md#states-and-flows). */
  authToken: `${STORAGE_NAMESPACE}:authToken`,
  email: `${STORAGE_NAMESPACE}:email`,
  displayName: `${STORAGE_NAMESPACE}:displayName`,
  organizationId: `${STORAGE_NAMESPACE}:organizationId`,
  /** Whether the signed-in user finished onboarding, as last computed by the connecting sequence. */
  onboardingComplete: `${STORAGE_NAMESPACE}:onboardingComplete`,
} as const;

export type SessionKey = keyof typeof SESSION_KEYS;

/** The entries logout clears (docs/requirements.md#states-and-flows): stored auth token, email, display name and organisation id. */
const LOGOUT_KEYS: readonly SessionKey[] = ["authToken", "email", "displayName", "organizationId"];

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
