import type { Session } from "@/lib/session";
import { decideRoute, rememberLogout } from "@/lib/route-guard";

type Facts = Partial<
  Pick<Session, "status" | "isOnboardingComplete" | "onboardingStep" | "hasWorkspaceAccount">
>;

/** A session in the given state; only the fields the guard reads matter. */
function session(facts: Facts = {}): Session {
  return {
    status: "connected",
    isOnboardingComplete: false,
    onboardingStep: 1,
    hasWorkspaceAccount: true,
    ...facts,
  } as Session;
}

const at = (pathname: string, search = "", from?: string) => ({ pathname, search, from });
const onboarded = session({ isOnboardingComplete: true, onboardingStep: 3 });

beforeEach(() => rememberLogout(false));

describe("while the auth state or the connection is not known", () => {
  test.each(["loading", "connecting"] as const)("when the session is %s, then the guard waits", (status) => {
    expect(decideRoute(session({ status }), at("/resources"))).toEqual({ kind: "wait" });
    expect(decideRoute(session({ status }), at("/login"))).toEqual({ kind: "wait" });
  });
});

describe("signed out", () => {
  const signedOut = session({ status: "signed-out" });

  test.each(["/login", "/sign-up"])("when the page is %s, then it renders", (pathname) => {
    expect(decideRoute(signedOut, at(pathname))).toEqual({ kind: "render" });
  });

  test("when any other page is opened, then the user goes to /login, remembering where they were going", () => {
    expect(decideRoute(signedOut, at("/policies", "?tab=1"))).toEqual({
      kind: "redirect",
      to: "/login",
      from: "/policies?tab=1",
    });
    expect(decideRoute(signedOut, at("/onboarding/step-2"))).toMatchObject({ to: "/login" });
  });

  test("when the page carries the app query parameter, then it is carried to /login", () => {
    expect(decideRoute(signedOut, at("/resources", "?app=marketplace&x=1"))).toMatchObject({
      to: "/login?app=marketplace",
    });
  });

  test("when the user has just logged out, then they go to /sign-up instead, until a public page is shown", () => {
    rememberLogout(true);
    expect(decideRoute(signedOut, at("/resources"))).toMatchObject({ to: "/sign-up" });
    expect(decideRoute(signedOut, at("/sign-up"))).toEqual({ kind: "render" });
    expect(decideRoute(signedOut, at("/resources"))).toMatchObject({ to: "/login" });
  });
});

test("when connecting failed, then the failure is shown wherever the user is", () => {
  expect(decideRoute(session({ status: "failed" }), at("/resources"))).toEqual({
    kind: "connecting-failed",
  });
});

describe("connected with incomplete onboarding", () => {
  test.each([
    [1, "/onboarding/step-1"],
    [2, "/onboarding/step-2"],
    [3, "/onboarding/step-3"],
  ] as const)("when the current step is %i, then every page leads to %s", (step, target) => {
    const current = session({ onboardingStep: step });
    for (const pathname of [
      "/",
      "/resources",
      "/login",
      "/sign-up",
      "/onboarding/step-1",
      "/onboarding/step-3",
    ]) {
      if (pathname === target) continue;
      expect(decideRoute(current, at(pathname))).toEqual({ kind: "redirect", to: target });
    }
    expect(decideRoute(current, at(target))).toEqual({ kind: "render" });
  });

  test("when redirected into the onboarding, then the app query parameter is carried", () => {
    expect(decideRoute(session({ onboardingStep: 2 }), at("/resources", "?app=42"))).toEqual({
      kind: "redirect",
      to: "/onboarding/step-2?app=42",
    });
  });

  test("when on a step, then that step's own companion page may be shown, others may not", () => {
    expect(decideRoute(session({ onboardingStep: 1 }), at("/onboarding/app-install-error"))).toEqual({
      kind: "render",
    });
    expect(decideRoute(session({ onboardingStep: 2 }), at("/onboarding/super-admin-login"))).toEqual({
      kind: "render",
    });
    expect(decideRoute(session({ onboardingStep: 3 }), at("/onboarding/super-admin-success"))).toEqual({
      kind: "render",
    });
    expect(decideRoute(session({ onboardingStep: 1 }), at("/onboarding/super-admin-success"))).toMatchObject({
      to: "/onboarding/step-1",
    });
  });

  test("when a super admin has signed in on the super-admin login page, then the success page follows", () => {
    expect(
      decideRoute(session({ onboardingStep: 3 }), at("/onboarding/super-admin-login", "?app=1")),
    ).toEqual({
      kind: "redirect",
      to: "/onboarding/super-admin-success?app=1",
    });
  });

  test("when the account has no Google Workspace, then only the no-workspace page is shown", () => {
    const consumer = session({ hasWorkspaceAccount: false, onboardingStep: 2 });
    expect(decideRoute(consumer, at("/onboarding/step-2"))).toEqual({
      kind: "redirect",
      to: "/onboarding/no-google-workspace-account",
    });
    expect(decideRoute(consumer, at("/onboarding/no-google-workspace-account"))).toEqual({ kind: "render" });
  });
});

describe("onboarding complete", () => {
  test.each(["/", "/resources", "/policies", "/search/abc", "/profile/secrets", "/no-such-page"])(
    "when %s is opened, then it renders",
    (pathname) => {
      expect(decideRoute(onboarded, at(pathname))).toEqual({ kind: "render" });
    },
  );

  test.each([
    "/login",
    "/sign-up",
    "/onboarding/step-1",
    "/onboarding/step-3",
    "/onboarding/super-admin-success",
  ])("when %s is opened, then the user goes to /resources", (pathname) => {
    expect(decideRoute(onboarded, at(pathname))).toEqual({ kind: "redirect", to: "/resources" });
  });

  test("when the user was sent to log in from a page, then completing leads back to that page (never to a public or onboarding page)", () => {
    expect(decideRoute(onboarded, at("/login", "", "/audit-logs?page=2"))).toEqual({
      kind: "redirect",
      to: "/audit-logs?page=2",
    });
    expect(decideRoute(onboarded, at("/login", "", "/sign-up?app=1"))).toMatchObject({ to: "/resources" });
    expect(decideRoute(onboarded, at("/login", "", "/onboarding/step-3"))).toMatchObject({
      to: "/resources",
    });
  });
});
