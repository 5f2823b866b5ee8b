import type { User } from "firebase/auth";
import { useCallback, useState, useSyncExternalStore } from "react";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";
import { env } from "@/config/env";
import { currentFirebaseUser, loadFirebase, onAuthState } from "@/lib/firebase";
import { rememberLogout } from "@/lib/route-guard";
import { clearSession } from "@/lib/session-storage";

/** Sign-in with the workspace identity (Google) in a popup; also used to switch to another account. */
export async function signInWithGoogle(): Promise<User> {
  // Loaded after the first paint: by the time the user clicks it is there, and the popup still opens
  // within the click's user activation.
  const { auth, GoogleAuthProvider, signInWithPopup } = await loadFirebase();
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  const result = await signInWithPopup(auth, provider);
  rememberLogout(false);
  return result.user;
}

/** Emulator builds only: signs in the seeded demo administrator with an unsigned Google id_token. */
export async function signInAsDemoUser(): Promise<User> {
  if (!env.useEmulators) throw new Error("Demo sign-in exists only in emulator builds");
  const { auth, GoogleAuthProvider, signInWithCredential } = await loadFirebase();
  const idToken = JSON.stringify({
    sub: DEMO_GOOGLE_USER.sub,
    email: DEMO_GOOGLE_USER.email,
    email_verified: true,
    name: DEMO_GOOGLE_USER.displayName,
  });
  const result = await signInWithCredential(auth, GoogleAuthProvider.credential(idToken));
  rememberLogout(false);
  return result.user;
}

/**
 * Logout (docs/requirements.md#states-and-flows): clears the stored auth token, email, display name and organisation id and signs out;
 * the session resets itself when the auth state becomes signed out, and the route guard continues to
 * sign-up.
 */
export async function logout(): Promise<void> {
  rememberLogout(true);
  clearSession();
  const { auth, signOut } = await loadFirebase();
  await signOut(auth);
}

const subscribeToAuth = (changed: () => void) => onAuthState(changed);

/** The signed-in Firebase user, or null (also while the SDK loads); follows sign-in and sign-out. */
export function useCurrentUser(): User | null {
  return useSyncExternalStore(subscribeToAuth, currentFirebaseUser);
}

/** Why a sign-in failed, as a message for the user (identity errors carry their code in the message). */
function failureMessage(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}

/**
 * One sign-in at a time from a page: `start(signIn)` runs it, `busy` is true meanwhile, and `failure`
 * holds the message of the last failed attempt (null after success or on a new attempt). After a
 * successful sign-in the session reconnects and the route guard leads on.
 */
export function useSignIn(): {
  busy: boolean;
  failure: string | null;
  start: (signIn: () => Promise<unknown>) => void;
} {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const start = useCallback((signIn: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(null);
    signIn()
      .catch((caught: unknown) => setFailure(failureMessage(caught)))
      .finally(() => setBusy(false));
  }, []);
  return { busy, failure, start };
}
