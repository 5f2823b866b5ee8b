/**
 * The session (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #states-and-flows)
 * with the fake API and Firebase: a browser whose stored auth token is gone or another user's starts
 * signed out, what connecting stores, and the onboarding step and plan it derives.
 */
import { screen, waitFor } from "@testing-library/react";
import { fakeFirebase } from "@/testing/fake-firebase-sdk";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { anInstallation } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { readSessionEntry, writeSessionEntry } from "./session-storage";
import { useSession } from "./session";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

/** The session as the screens read it. */
function SessionFacts() {
  const session = useSession();
  return (
    <dl>
      <dt>status</dt>
      <dd data-testid="status">{session.status}</dd>
      <dt>step</dt>
      <dd data-testid="step">{session.onboardingStep}</dd>
      <dt>organisation</dt>
      <dd data-testid="organization">{session.organizationId ?? "none"}</dd>
      <dt>plan</dt>
      <dd data-testid="plan">
        {session.organizationPlan
          ? `${session.organizationPlan.name} ${session.organizationPlan.premium}`
          : "none"}
      </dd>
    </dl>
  );
}

describe("restoring a session", () => {
  it("when the browser has no stored auth token, then the page starts signed out, asks nothing and forgets the last user", async () => {
    writeSessionEntry("email", "admin@alpvault-demo.test");
    await renderWithProviders(<SessionFacts />, { storedAuthToken: "none" });
    expect(screen.getByTestId("status")).toHaveTextContent("signed-out");
    expect(readSessionEntry("email")).toBeNull();
    expect(api.requests()).toHaveLength(0);
  });

  it("when the stored auth token is another user's, then the restored user is signed out", async () => {
    await renderWithProviders(<SessionFacts />, { storedAuthToken: "another user's" });
    await waitFor(() => expect(screen.getByTestId("status")).toHaveTextContent("signed-out"));
    expect(readSessionEntry("storedAuthToken")).toBeNull();
    expect(api.requests("GET /installation")).toHaveLength(0);
  });

  it("when the user's own token is stored, then connecting stores the organisation id and the onboarding's completion", async () => {
    await renderWithProviders(<SessionFacts />);
    expect(screen.getByTestId("status")).toHaveTextContent("connected");
    expect(screen.getByTestId("organization")).toHaveTextContent("org-demo");
    expect(readSessionEntry("organizationId")).toBe("org-demo");
    expect(readSessionEntry("onboardingComplete")).toBe("true");
  });

  it("when the user signs out elsewhere, then the session follows to signed out", async () => {
    await renderWithProviders(<SessionFacts />);
    fakeFirebase.signOut();
    await waitFor(() => expect(screen.getByTestId("status")).toHaveTextContent("signed-out"));
  });
});

describe("what connecting derives", () => {
  it.each([
    ["not-installed", "1", "none"],
    ["not-admin", "2", "none"],
    ["no-region", "3", "none"],
    ["complete", "3", "org-demo"],
  ] as const)(
    "when the installation says %s, then the step is %s and the organisation %s",
    async (stage, step, organization) => {
      await renderWithProviders(<SessionFacts />, { stage });
      expect(screen.getByTestId("step")).toHaveTextContent(step);
      expect(screen.getByTestId("organization")).toHaveTextContent(organization);
    },
  );

  it("when the organisation's details fail, then the plan comes from the installation answer (premium unless Matterhorn)", async () => {
    api.answer("GET /installation", anInstallation("complete", "matterhorn"));
    api.fail("GET /organizations/:organizationId", { code: 500, message: "" });
    await renderWithProviders(<SessionFacts />, { plan: "geneva" });
    expect(screen.getByTestId("plan")).toHaveTextContent("Matterhorn false");
  });
});
