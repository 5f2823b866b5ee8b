/**
 * The onboarding's branches before the region (docs/requirements.md#states-and-flows, #who-may-do-what)
 * against the fake API: step 1's install and verification (installed, not installed, failed), the
 * app-install error page, step 2 for an account that is not a super admin, the super-admin sign-in and its
 * success, consumer accounts, and the layout's step counter and Logout.
 */
import { screen, waitFor } from "@testing-library/react";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import type { ReactNode } from "react";
import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { readSessionEntry } from "@/lib/session-storage";
import { useSession } from "@/lib/session";
import { fakeFirebase } from "@/testing/fake-firebase-sdk";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { anInstallation, type Stage } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { AppInstallError } from "./app-install-error";
import { AppInstallStep } from "./app-install-step";
import { NoWorkspaceAccount } from "./no-workspace-account";
import { SuperAdminLogin } from "./super-admin-login";
import { SuperAdminStep } from "./super-admin-step";
import { SuperAdminSuccess } from "./super-admin-success";

const INSTALLATION = "GET /installation";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

/** What the session says, for the tests to read. */
function SessionState() {
  const session = useSession();
  return <p data-testid="session-state">{session.status}</p>;
}

function open(page: ReactNode, route: string, stage: Stage) {
  return renderWithProviders(
    <OnboardingLayout title="Onboarding">
      {page}
      <SessionState />
    </OnboardingLayout>,
    { route, path: route.split("?")[0], stage },
  );
}

describe("step 1: install the app", () => {
  it("when the app is not installed, then step 1 of 3 says how to install it and links to the Marketplace", async () => {
    await open(<AppInstallStep />, "/onboarding/step-1?app=alpvault", "not-installed");
    expect(screen.getByTestId("onboarding-step")).toHaveTextContent("Step 1 / 3");
    expect(screen.getByTestId("app-install-instructions")).toHaveTextContent(
      ORGANIZATION_MESSAGES.notInstalled,
    );
    expect(screen.getByRole("link", { name: "Open Google Workspace Marketplace" })).toHaveAttribute(
      "href",
      "http://127.0.0.1:8090/marketplace/app/alpvault/104857600",
    );
    expect(screen.getByRole("button", { name: "Logout" })).toBeInTheDocument();
  });

  it("when verification finds the app not installed, then the app-install error page follows, keeping the app parameter", async () => {
    const { user, router } = await open(
      <AppInstallStep />,
      "/onboarding/step-1?app=alpvault",
      "not-installed",
    );
    await user.click(screen.getByRole("button", { name: "Verify installation" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/onboarding/app-install-error"));
    expect(router.state.location.search).toBe("?app=alpvault");
    // The session was read again with the answer.
    expect(api.requests(INSTALLATION).length).toBeGreaterThanOrEqual(3);
  });

  it("when verification finds the app installed, then the page reloads to read everything afresh", async () => {
    const { user, router } = await open(<AppInstallStep />, "/onboarding/step-1", "not-installed");
    api.answer(INSTALLATION, anInstallation("no-region"));
    // jsdom cannot reload a page: it reports the navigation as not implemented, which is how the test sees it.
    const reported = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await user.click(screen.getByRole("button", { name: "Verify installation" }));
      await waitFor(() =>
        expect(reported.mock.calls.some((call) => String(call[0]).includes("navigation"))).toBe(true),
      );
      expect(router.state.location.pathname).toBe("/onboarding/step-1");
    } finally {
      reported.mockRestore();
    }
  });

  it("when verification fails, then its message shows and the button works again", async () => {
    const { user } = await open(<AppInstallStep />, "/onboarding/step-1", "not-installed");
    api.fail(INSTALLATION, {
      code: 503,
      message: "Google Workspace could not be reached. Please try again later.",
    });
    await user.click(screen.getByRole("button", { name: "Verify installation" }));
    expect(await screen.findByTestId("verify-installation-error")).toHaveTextContent(
      "Google Workspace could not be reached. Please try again later.",
    );
    expect(screen.getByRole("button", { name: "Verify installation" })).toBeEnabled();
  });

  it("when the installation is being verified, then the button says so", async () => {
    const { user } = await open(<AppInstallStep />, "/onboarding/step-1", "not-installed");
    api.hold(INSTALLATION);
    await user.click(screen.getByRole("button", { name: "Verify installation" }));
    expect(await screen.findByRole("button", { name: "Verifying…" })).toBeDisabled();
  });

  it("when the app-install error page shows, then it says the app is not installed and leads back to step 1", async () => {
    await open(<AppInstallError />, "/onboarding/app-install-error?app=alpvault", "not-installed");
    expect(screen.getByTestId("app-install-error")).toHaveTextContent(ORGANIZATION_MESSAGES.notInstalled);
    expect(screen.getByRole("link", { name: "Back to the installation steps" })).toHaveAttribute(
      "href",
      "/onboarding/step-1?app=alpvault",
    );
  });
});

describe("step 2: a super admin is needed", () => {
  it("when the account is not a super admin, then step 2 refuses it with the exact text, offers no Logout, and leads to another sign-in", async () => {
    const { user, router } = await open(<SuperAdminStep />, "/onboarding/step-2?app=alpvault", "not-admin");
    expect(screen.getByTestId("onboarding-step")).toHaveTextContent("Step 2 / 3");
    expect(screen.getByTestId("not-admin")).toHaveTextContent(ORGANIZATION_MESSAGES.notAdmin);
    expect(screen.getByText("You are signed in as admin@alpvault-demo.test.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Sign in with another account" }));
    expect(router.state.location.pathname).toBe("/onboarding/super-admin-login");
    expect(router.state.location.search).toBe("?app=alpvault");
  });

  it("when the super admin signs in from the super-admin login page, then the session reconnects as them", async () => {
    const { user } = await open(<SuperAdminLogin />, "/onboarding/super-admin-login", "not-admin");
    expect(screen.getByTestId("not-admin")).toHaveTextContent(ORGANIZATION_MESSAGES.notAdmin);
    const asked = api.requests(INSTALLATION).length;
    api.answer(INSTALLATION, anInstallation("no-region"));
    await user.click(screen.getByRole("button", { name: "Sign in with Google as a super admin" }));
    await waitFor(() => expect(api.requests(INSTALLATION).length).toBeGreaterThan(asked));
    await waitFor(() => expect(screen.getByTestId("onboarding-step")).toHaveTextContent("Step 3 / 3"));
  });

  it("when that sign-in fails, then the page says why", async () => {
    fakeFirebase.failNextSignIn(new Error("Firebase: The popup was closed (auth/popup-closed-by-user)."));
    const { user } = await open(<SuperAdminLogin />, "/onboarding/super-admin-login", "not-admin");
    await user.click(screen.getByRole("button", { name: "Sign in with Google as a super admin" }));
    expect(
      await screen.findByText("Sign-in failed: Firebase: The popup was closed (auth/popup-closed-by-user)."),
    ).toBeInTheDocument();
  });

  it("when the super admin is signed in, then the success page names them and their domain and continues to step 3", async () => {
    const { user, router } = await open(
      <SuperAdminSuccess />,
      "/onboarding/super-admin-success?app=x",
      "no-region",
    );
    expect(screen.getByTestId("super-admin-success")).toHaveTextContent(
      "admin@alpvault-demo.test is a super admin of alpvault-demo.test. You can now choose where your backups are stored.",
    );
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(router.state.location.pathname).toBe("/onboarding/step-3");
    expect(router.state.location.search).toBe("?app=x");
  });
});

describe("accounts outside Google Workspace", () => {
  it("when a consumer account signs in, then the page says it belongs to no Workspace, names it, and offers another sign-in", async () => {
    await open(<NoWorkspaceAccount />, "/onboarding/no-google-workspace-account", "no-workspace");
    expect(screen.getByTestId("no-workspace-account")).toHaveTextContent(ORGANIZATION_MESSAGES.noWorkspace);
    expect(screen.getByText(/\(admin@alpvault-demo\.test is not one\)/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign in with another account" })).toBeEnabled();
  });

  it("when Logout is used, then the session is signed out and its stored entries are cleared", async () => {
    const { user } = await open(
      <NoWorkspaceAccount />,
      "/onboarding/no-google-workspace-account",
      "no-workspace",
    );
    expect(readSessionEntry("storedAuthToken")).not.toBeNull();
    await user.click(screen.getByRole("button", { name: "Logout" }));
    await waitFor(() => expect(screen.getByTestId("session-state")).toHaveTextContent("signed-out"));
    for (const entry of ["storedAuthToken", "email", "displayName", "organizationId"] as const) {
      expect(readSessionEntry(entry)).toBeNull();
    }
  });
});
