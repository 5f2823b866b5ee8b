/**
 * Step 3 and connecting (docs/requirements.md#states-and-flows, #validation, #errors-and-messages) against
 * the fake API: the region's two rule texts with nothing sent, the subscription set-up on the chosen
 * region's host with its failure and Retry, and a connecting sequence that fails with its message and
 * recovers with Retry.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { useSession } from "@/lib/session";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { anInstallation, anOrganizationSummary } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { ConnectingFailed } from "./connecting-failed";
import { RegionStep } from "./region-step";

const INSTALLATION = "GET /installation";
const REGIONS = "GET /regions";
const CREATE = "POST /organizations";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

/** Whether the session counts onboarding as complete, for the tests to read. */
function Completion() {
  const { isOnboardingComplete } = useSession();
  return <p data-testid="onboarding-complete">{String(isOnboardingComplete)}</p>;
}

/** As the route guard does: the connecting failure while connecting failed, else the app. */
function Guarded() {
  const { status } = useSession();
  return status === "failed" ? <ConnectingFailed /> : <p>{status}</p>;
}

async function openRegionStep() {
  return renderWithProviders(
    <>
      <RegionStep />
      <Completion />
    </>,
    { route: "/onboarding/step-3", stage: "no-region" },
  );
}

describe("choosing the backup region", () => {
  it("when the regions show, then each names its Google Cloud location", async () => {
    await openRegionStep();
    const group = screen.getByRole("radiogroup", { name: "Backup region" });
    expect(within(group).getAllByRole("radio")).toHaveLength(3);
    expect(
      within(group).getByRole("radio", { name: "Switzerland Google Cloud europe-west6" }),
    ).not.toBeChecked();
  });

  it("when Confirm region is used with nothing chosen, then both rule texts show and nothing is sent", async () => {
    const { user } = await openRegionStep();
    await user.click(screen.getByRole("button", { name: "Confirm region" }));
    expect(await screen.findByText("Please choose a backup region.")).toBeInTheDocument();
    expect(screen.getByTestId("confirmation-error")).toHaveTextContent(
      "Please confirm that the backup region cannot be changed once confirmed.",
    );
    expect(api.requests(CREATE)).toHaveLength(0);
  });

  it("when a region is chosen without the irreversible confirmation, then it asks for it and sends nothing", async () => {
    const { user } = await openRegionStep();
    await user.click(screen.getByRole("radio", { name: /^Switzerland/ }));
    await user.click(screen.getByRole("button", { name: "Confirm region" }));
    expect(await screen.findByTestId("confirmation-error")).toBeInTheDocument();
    expect(screen.queryByText("Please choose a backup region.")).not.toBeInTheDocument();
    expect(api.requests(CREATE)).toHaveLength(0);
  });

  it("when the region is confirmed, then the subscription is set up on that region's host and the session completes", async () => {
    api.answer(CREATE, anOrganizationSummary());
    const { user } = await openRegionStep();
    await user.click(screen.getByRole("radio", { name: /^United States/ }));
    await user.click(
      screen.getByRole("checkbox", {
        name: "I understand that the backup region cannot be changed once confirmed.",
      }),
    );
    api.answer(INSTALLATION, anInstallation("complete"));
    await user.click(screen.getByRole("button", { name: "Confirm region" }));
    await waitFor(() => expect(screen.getByTestId("onboarding-complete")).toHaveTextContent("true"));
    expect(api.lastRequest(CREATE)).toMatchObject({ host: "us.api.alpvault.test", body: { regionId: "us" } });
  });

  it("when the set-up fails, then the required text and the API's message show with Retry, which completes it", async () => {
    api.fail(CREATE, { code: 503, message: "The region is not available right now." });
    const { user } = await openRegionStep();
    await user.click(screen.getByRole("radio", { name: /^Switzerland/ }));
    await user.click(screen.getByRole("checkbox", { name: /cannot be changed once confirmed/ }));
    await user.click(screen.getByRole("button", { name: "Confirm region" }));
    const error = await screen.findByTestId("subscription-setup-error");
    expect(error).toHaveTextContent(
      "We couldn't complete your subscription setup. Please try again.The region is not available right now.",
    );
    api.answer(CREATE, anOrganizationSummary());
    api.answer(INSTALLATION, anInstallation("complete"));
    await user.click(within(error).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(screen.getByTestId("onboarding-complete")).toHaveTextContent("true"));
    expect(api.requests(CREATE).map((request) => request.body)).toEqual([
      { regionId: "ch" },
      { regionId: "ch" },
    ]);
  });

  it("when the subscription is being set up, then the button says so and the choices are locked", async () => {
    api.answer(CREATE, anOrganizationSummary());
    api.hold(CREATE);
    const { user } = await openRegionStep();
    await user.click(screen.getByRole("radio", { name: /^Switzerland/ }));
    await user.click(screen.getByRole("checkbox", { name: /cannot be changed once confirmed/ }));
    await user.click(screen.getByRole("button", { name: "Confirm region" }));
    expect(await screen.findByRole("button", { name: "Setting up your subscription…" })).toBeDisabled();
    expect(screen.getByRole("radio", { name: /^Switzerland/ })).toBeDisabled();
  });

  it("when no region is offered, then the step says so", async () => {
    api.answer(REGIONS, { regions: [] });
    await openRegionStep();
    expect(screen.getByText("No backup region is available right now.")).toBeInTheDocument();
  });
});

describe("connecting a session", () => {
  it("when the installation fails, then connecting stops with its message, and Retry connects", async () => {
    api.fail(INSTALLATION, { code: 503, message: "The installation could not be read." });
    const { user } = await renderWithProviders(<Guarded />, { route: "/resources" });
    expect(screen.getByRole("heading", { name: "We couldn't connect your account" })).toBeInTheDocument();
    expect(screen.getByTestId("connecting-error")).toHaveTextContent("The installation could not be read.");
    api.answer(INSTALLATION, anInstallation());
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("connected")).toBeInTheDocument();
    expect(screen.queryByTestId("connecting-error")).not.toBeInTheDocument();
  });

  it("when the regions fail without a message, then connecting stops with the generic text", async () => {
    api.fail(REGIONS, { code: 500, message: "" });
    await renderWithProviders(<Guarded />, { route: "/resources" });
    expect(screen.getByTestId("connecting-error")).toHaveTextContent("Something went wrong.");
    expect(screen.getByRole("button", { name: "Logout" })).toBeInTheDocument();
  });

  it("when the organisation's details fail, then connecting still completes", async () => {
    api.fail("GET /organizations/:organizationId", { code: 500, message: "Details unavailable" });
    await renderWithProviders(<Completion />, { route: "/resources" });
    expect(screen.getByTestId("onboarding-complete")).toHaveTextContent("true");
  });

  it("when connecting, then the installation is asked with the ID token and the App Check token, and the plan with repeated fields on the region's host", async () => {
    await renderWithProviders(<Completion />, { route: "/resources" });
    expect(api.lastRequest(INSTALLATION).headers).toMatchObject({
      authorization: "Bearer test-id-token",
      "x-firebase-appcheck": "test-app-check-token",
    });
    const plan = api.lastRequest("GET /organizations/:organizationId/subscriptions/:subscriptionId");
    expect(plan).toMatchObject({ host: "ch.api.alpvault.test", query: { fields: ["plan", "seats"] } });
  });
});
