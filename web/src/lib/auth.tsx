import { getToken } from "firebase/app-check";
import {
  GoogleAuthProvider,
  onAuthStateChanged,
  signInWithCredential,
  signInWithPopup,
  signOut,
  type User,
} from "firebase/auth";
import { useEffect } from "react";
import { useUser } from "reactfire";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";
import { env } from "@/config/env";
import { paths, PUBLIC_PATHS, withAppParameter } from "@/config/paths";
import { appCheck, auth } from "@/lib/firebase";
import type { Session } from "@/lib/session";
import { clearSession, writeSessionEntry } from "@/lib/session-storage";

/** Set by logout: the route guard then sends the signed-out user to sign-up rather than login (spec §2). */
let loggedOut = false;

/** Sign-in with the workspace identity (Google) in a popup; also used to switch to another account. */
export async function signInWithGoogle(): Promise<User> {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  const result = await signInWithPopup(auth, provider);
  loggedOut = false;
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
  loggedOut = false;
  return result.user;
}

/**
 * Logout (spec §4): clears the stored auth token, email, display name and organisation id and signs out;
 * the session resets itself when the auth state becomes signed out, and the route guard continues to
 * sign-up.
 */
export async function logout(): Promise<void> {
  loggedOut = true;
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

/** Where a route guard decision leads. */
export type GuardDecision =
  | { kind: "wait" }
  | { kind: "render" }
  | { kind: "connecting-failed" }
  | { kind: "redirect"; to: string; from?: string };

/** The onboarding pages a connected user with incomplete onboarding may open, the first being the step. */
function onboardingPagesOf(session: Session): readonly string[] {
  const { onboarding } = paths;
  if (!session.hasWorkspaceAccount) return [onboarding.noWorkspaceAccount.path];
  switch (session.onboardingStep) {
    case 1:
      return [onboarding.step1.path, onboarding.appInstallError.path];
    case 2:
      return [onboarding.step2.path, onboarding.superAdminLogin.path];
    case 3:
      return [onboarding.step3.path, onboarding.superAdminSuccess.path];
  }
}

function isOnboardingPath(pathname: string): boolean {
  return pathname.startsWith("/onboarding/");
}

/**
 * The route guard of spec §2:
 * - unknown auth state, or signed in and connecting: wait;
 * - unconnected users on any page other than login or sign-up go to /login (to /sign-up right after a
 *   logout), carrying the `app` query parameter;
 * - connecting failed: the failure is shown (retry or logout);
 * - connected with incomplete onboarding: /onboarding/step-{current step}, carrying the `app` query
 *   parameter (consumer accounts: the no-Google-Workspace-account page);
 * - onboarding complete: login, sign-up and onboarding pages lead to /resources (or the page the user
 *   first asked for).
 */
export function decideRoute(
  session: Session,
  location: { pathname: string; search: string; from?: string },
): GuardDecision {
  const { pathname, search } = location;
  const isPublic = PUBLIC_PATHS.includes(pathname);
  switch (session.status) {
    case "loading":
    case "connecting":
      return { kind: "wait" };
    case "signed-out": {
      if (isPublic) {
        loggedOut = false;
        return { kind: "render" };
      }
      const target = loggedOut ? paths.auth.signUp.getHref() : paths.auth.login.getHref();
      return { kind: "redirect", to: withAppParameter(target, search), from: `${pathname}${search}` };
    }
    case "failed":
      return { kind: "connecting-failed" };
    case "connected":
      break;
  }
  if (!session.isOnboardingComplete) {
    // Signed in as a super admin from the super-admin login page: its success page comes next.
    if (
      pathname === paths.onboarding.superAdminLogin.path &&
      session.hasWorkspaceAccount &&
      session.onboardingStep === 3
    ) {
      return { kind: "redirect", to: withAppParameter(paths.onboarding.superAdminSuccess.getHref(), search) };
    }
    const pages = onboardingPagesOf(session);
    if (pages.includes(pathname)) return { kind: "render" };
    return { kind: "redirect", to: withAppParameter(pages[0] ?? paths.onboarding.step1.path, search) };
  }
  if (isPublic || isOnboardingPath(pathname)) {
    const from = location.from;
    const back = from && !PUBLIC_PATHS.includes(from.split("?")[0] ?? "") && !isOnboardingPath(from);
    return { kind: "redirect", to: back ? from : paths.app.resources.getHref() };
  }
  return { kind: "render" };
}
