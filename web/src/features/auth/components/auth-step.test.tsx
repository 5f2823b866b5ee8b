/**
 * Sign-up and login (docs/requirements.md#screens-and-navigation) without the stack: the authentication
 * step's texts for each page, Google sign-in and the demo sign-in connecting the session, a failed sign-in
 * saying why, and the link between the two pages keeping the `app` parameter.
 */
import { screen, waitFor } from "@testing-library/react";
import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { readSessionEntry } from "@/lib/session-storage";
import { useSession } from "@/lib/session";
import { fakeFirebase } from "@/testing/fake-firebase-sdk";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { anInstallation, TEST_REGIONS } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { AuthStep } from "./auth-step";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer("GET /installation", anInstallation("not-installed"));
  api.answer("GET /regions", { regions: TEST_REGIONS });
});

/** The session's state, for the tests to read. */
function SessionState() {
  const { status, onboardingStep } = useSession();
  return <p data-testid="session-state">{`${status} ${onboardingStep}`}</p>;
}

function openPage(mode: "login" | "sign-up", search = "") {
  const path = mode === "login" ? "/login" : "/sign-up";
  return renderWithProviders(
    <OnboardingLayout title={mode === "login" ? "Sign in to Alpvault" : "Create your Alpvault account"}>
      <AuthStep mode={mode} />
      <SessionState />
    </OnboardingLayout>,
    { route: `${path}${search}`, path, session: "signed-out" },
  );
}

describe("the authentication step", () => {
  it("when login opens signed out, then it offers Google and the demo sign-in, no step counter or Logout, and the way to sign up", async () => {
    await openPage("login", "?app=alpvault");
    expect(screen.getByTestId("session-state")).toHaveTextContent("signed-out");
    expect(screen.getByRole("button", { name: "Sign in with Google" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Demo sign-in" })).toBeEnabled();
    expect(screen.queryByTestId("onboarding-step")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/sign-up?app=alpvault");
  });

  it("when sign-up opens, then it offers to sign up with Google and leads to login", async () => {
    await openPage("sign-up");
    expect(screen.getByRole("button", { name: "Sign up with Google" })).toBeEnabled();
    expect(screen.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login");
  });

  it("when the user signs in with Google, then the session connects with the installation and stores who signed in", async () => {
    const { user } = await openPage("login");
    await user.click(screen.getByRole("button", { name: "Sign in with Google" }));
    await waitFor(() => expect(screen.getByTestId("session-state")).toHaveTextContent("connected 1"));
    expect(api.requests("GET /installation")).toHaveLength(1);
    expect(readSessionEntry("email")).toBe("admin@alpvault-demo.test");
    expect(readSessionEntry("storedAuthToken")).toMatch(/^user-ada\./);
    await waitFor(() => expect(readSessionEntry("authToken")).toBe("test-app-check-token"));
  });

  it("when the demo sign-in is used, then the session connects too", async () => {
    const { user } = await openPage("sign-up");
    await user.click(screen.getByRole("button", { name: "Demo sign-in" }));
    await waitFor(() => expect(screen.getByTestId("session-state")).toHaveTextContent("connected 1"));
  });

  it("when the sign-in fails, then the page says why and the buttons work again", async () => {
    fakeFirebase.failNextSignIn(new Error("Firebase: Error (auth/popup-blocked)."));
    const { user } = await openPage("login");
    await user.click(screen.getByRole("button", { name: "Sign in with Google" }));
    expect(
      await screen.findByText("Sign-in failed: Firebase: Error (auth/popup-blocked)."),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign in with Google" })).toBeEnabled();
    expect(screen.getByTestId("session-state")).toHaveTextContent("signed-out");
  });
});
