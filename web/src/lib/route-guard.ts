/**
 * The route guard's decision (docs/requirements.md#screens-and-navigation), kept free of Firebase and React so it is unit-tested on its own
 * (`route-guard.test.ts`); `app/router.tsx` acts on it.
 */
import { paths, PUBLIC_PATHS, withAppParameter } from "@/config/paths";
import type { Session } from "@/lib/session";

/** Set by logout: the guard then sends the signed-out user to sign-up rather than login (docs/requirements.md#screens-and-navigation). */
let loggedOut = false;

export function rememberLogout(value: boolean): void {
  loggedOut = value;
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
 * The route guard of docs/requirements.md#screens-and-navigation:
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
        rememberLogout(false);
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
