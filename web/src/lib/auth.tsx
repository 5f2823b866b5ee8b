import { getToken } from "firebase/app-check";
import {
  GoogleAuthProvider,
  onAuthStateChanged,
  signInWithCredential,
  signInWithPopup,
  signOut,
  type User,
} from "firebase/auth";
import { useEffect, type ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { useSigninCheck, useUser } from "reactfire";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";
import { paths } from "@/config/paths";
import { env } from "@/config/env";
import { FullPageSpinner } from "@/components/ui/full-page-spinner";
import { appCheck, auth } from "@/lib/firebase";
import { clearSession, writeSessionEntry } from "@/lib/session-storage";

/** Sign-in with the workspace identity (Google) in a popup. */
export async function signInWithGoogle(): Promise<User> {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  const result = await signInWithPopup(auth, provider);
  return result.user;
}

/** Emulator builds only: signs in the seeded demo administrator with an unsigned Google id_token. */
export async function signInAsDemoUser(): Promise<User> {
  if (!env.useEmulators) throw new Error("Demo sign-in exists only in emulator builds");
  const idToken = JSON.stringify({
    sub: DEMO_GOOGLE_USER.sub,
    email: DEMO_GOOGLE_USER.email,
    email_verified: true,
    name: DEMO_GOOGLE_USER.displayName,
  });
  const result = await signInWithCredential(auth, GoogleAuthProvider.credential(idToken));
  return result.user;
}

/** Logout (spec §4): clears the stored session entries and signs out. */
export async function logout(): Promise<void> {
  clearSession();
  await signOut(auth);
}

/**
 * Keeps the session's browser storage entries in step with the auth state: on becoming signed in the
 * App Check token is fetched and stored as authToken, with the user's email and display name (spec §4).
 */
export function useSessionStorageSync(): void {
  useEffect(
    () =>
      onAuthStateChanged(auth, (user) => {
        if (!user) return;
        writeSessionEntry("email", user.email);
        writeSessionEntry("displayName", user.displayName);
        getToken(appCheck, false)
          .then(({ token }) => writeSessionEntry("authToken", token))
          .catch((error: unknown) => console.warn("App Check token could not be fetched", error));
      }),
    [],
  );
}

export function useCurrentUser(): User | null {
  return useUser().data ?? null;
}

/** Unauthenticated users on any page other than login or sign-up go to /login (spec §2). */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { status, data } = useSigninCheck();
  const location = useLocation();
  if (status === "loading") return <FullPageSpinner />;
  if (!data?.signedIn) {
    return <Navigate to={paths.auth.login.getHref()} replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}

/** Signed-in users opening login or sign-up continue into the app. */
export function PublicOnlyRoute({ children }: { children: ReactNode }) {
  const { status, data } = useSigninCheck();
  if (status === "loading") return <FullPageSpinner />;
  if (data?.signedIn) return <Navigate to={paths.app.home.getHref()} replace />;
  return <>{children}</>;
}
