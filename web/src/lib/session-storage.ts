import { STORAGE_NAMESPACE } from "@/config/constants";

/**
 * Browser storage entries of the session (spec §3). Failures are logged only: the app keeps working
 * without them.
 */
export const SESSION_KEYS = {
  authToken: `${STORAGE_NAMESPACE}:authToken`,
  email: `${STORAGE_NAMESPACE}:email`,
  displayName: `${STORAGE_NAMESPACE}:displayName`,
  organizationId: `${STORAGE_NAMESPACE}:organizationId`,
} as const;

export type SessionKey = keyof typeof SESSION_KEYS;

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
  for (const key of Object.keys(SESSION_KEYS) as SessionKey[]) writeSessionEntry(key, null);
}
