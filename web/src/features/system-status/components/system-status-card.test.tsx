/**
 * The API's health as the debug block shows it, against the fake API: the status, the version with the
 * build's environment and whom the API sees, while checking, and a failure with Check again.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { renderWithProviders } from "@/testing/render";
import { SystemStatusCard } from "./system-status-card";

const HEALTH = "GET /health";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

describe("the system status", () => {
  it("when the API is healthy, then the card shows its status, version and environment, and the caller", async () => {
    api.answer(HEALTH, {
      status: "ok",
      version: "1.1.1",
      user: { uid: "user-ada", email: "admin@alpvault-demo.test" },
    });
    await renderWithProviders(<SystemStatusCard />);
    expect(await screen.findByTestId("health-status")).toHaveTextContent("ok");
    expect(screen.getByTestId("health-version")).toHaveTextContent("1.1.1 (development)");
    expect(screen.getByTestId("health-user")).toHaveTextContent("admin@alpvault-demo.test");
  });

  it("when the check is under way, then the card says so", async () => {
    api.answer(HEALTH, { status: "ok", version: "1.1.1", user: { uid: "user-ada", email: null } });
    const held = api.hold(HEALTH);
    await renderWithProviders(<SystemStatusCard />);
    await waitFor(() => expect(held.arrived).toBe(1));
    expect(screen.getByText("Checking the service…")).toBeInTheDocument();
    held.release();
    expect(await screen.findByTestId("health-user")).toHaveTextContent("user-ada");
  });

  it("when the API cannot be reached, then the card says so with its reason, and Check again asks again", async () => {
    api.failNetwork(HEALTH);
    const { user } = await renderWithProviders(<SystemStatusCard />);
    const error = await screen.findByTestId("health-error");
    expect(error).toHaveTextContent("The service could not be reached: Unexpected error occurred");
    api.answer(HEALTH, { status: "ok", version: "1.1.1", user: { uid: "user-ada", email: null } });
    await user.click(within(error).getByRole("button", { name: "Check again" }));
    expect(await screen.findByTestId("health-status")).toHaveTextContent("ok");
  });
});
