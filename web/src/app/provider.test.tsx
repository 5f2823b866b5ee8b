/**
 * The app's own providers (`provider.tsx`) with the calls the app makes while connecting
 * (docs/requirements.md#errors-and-messages): a failure of the plan data alone shows the server's message in
 * an error snackbar, and the session still connects with the default plan (its loading stops).
 */
import { render, screen } from "@testing-library/react";
import { writeSessionEntry } from "@/lib/session-storage";
import { useSession } from "@/lib/session";
import { fakeFirebase, TEST_USER } from "@/testing/fake-firebase-sdk";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import {
  anInstallation,
  anOrganizationDetails,
  aSubscription,
  TEST_REGIONS,
} from "@/testing/fixtures/session";
import { expectSnackbar, noSnackbar } from "@/testing/snackbar";
import { AppProvider } from "./provider";

const PLAN = "GET /organizations/:organizationId/subscriptions/:subscriptionId";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer("GET /installation", anInstallation("complete", "geneva"));
  api.answer("GET /regions", { regions: TEST_REGIONS });
  api.answer("GET /organizations/:organizationId", anOrganizationDetails("geneva"));
  fakeFirebase.signIn(TEST_USER);
  writeSessionEntry("storedAuthToken", `${TEST_USER.uid}.test`);
});

/** What the screens read of the session. */
function SessionFacts() {
  const session = useSession();
  return (
    <p data-testid="session">
      {session.status} · {session.currentPlan.name} · {session.currentPlan.maxUsers ?? "unlimited"}
    </p>
  );
}

describe("connecting in the app's providers", () => {
  it("when the plan data call alone fails, then its message shows in an error snackbar and the session connects with the default plan", async () => {
    api.fail(PLAN, { code: 503, message: "The billing service is unavailable." });
    render(
      <AppProvider>
        <SessionFacts />
      </AppProvider>,
    );
    expect(await screen.findByText("connected · GW Daily · 5")).toBeInTheDocument();
    await expectSnackbar("The billing service is unavailable.", "error");
    expect(api.lastRequest(PLAN).query).toEqual({ fields: ["plan", "seats"] });
  });

  it("when the plan data call fails without a message, then the snackbar says the generic text", async () => {
    api.fail(PLAN, { code: 500, message: "" });
    render(
      <AppProvider>
        <SessionFacts />
      </AppProvider>,
    );
    expect(await screen.findByText("connected · GW Daily · 5")).toBeInTheDocument();
    await expectSnackbar("Something went wrong.", "error");
  });

  it("when the plan data is read, then the session has the organisation's plan and no snackbar shows", async () => {
    api.answer(PLAN, aSubscription("geneva"));
    render(
      <AppProvider>
        <SessionFacts />
      </AppProvider>,
    );
    expect(await screen.findByText(/^connected · Geneva/)).toBeInTheDocument();
    expect(noSnackbar()).toBe(true);
  });
});
