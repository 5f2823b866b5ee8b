/**
 * My Subscription and My profile (docs/requirements.md#data-the-console-shows, #errors-and-messages, "Seats
 * over the count") against the fake API: the subscription's figures, what shows when they cannot be read,
 * the auto-add switches saved or reverted with the required text, and the seat-overage alert.
 */
import { screen, waitFor, within } from "@testing-library/react";
import type { SeatOverage, SubscriptionDetails } from "@alpvault/contracts/organizations";
import { GB, PLANS, type PlanId } from "@alpvault/contracts/plans";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { aSubscription } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { ProfileScreen, SubscriptionScreen } from "./billing-screens";

const SUBSCRIPTION = "GET /organizations/:organizationId/subscriptions/:subscriptionId";
const AUTO_ADD_STORAGE = "PUT /organizations/:organizationId/settings/auto-add-storage";
const AUTO_ADD_SEATS = "PUT /organizations/:organizationId/settings/auto-add-seats";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

async function openSubscription(plan: PlanId = "geneva", change: Partial<SubscriptionDetails> = {}) {
  api.answer(SUBSCRIPTION, aSubscription(plan, change));
  const rendered = await renderWithProviders(<SubscriptionScreen />, {
    route: "/profile/subscription",
    plan,
  });
  await within(await screen.findByTestId("subscription-plan")).findByText(PLANS[plan].name);
  await waitFor(() => expect(screen.getByTestId("auto-add-storage")).toBeEnabled());
  return rendered;
}

const DAY = 86_400_000;
const overage = (sinceDaysAgo: number, over = 3): SeatOverage => {
  const since = new Date(Date.now() - sinceDaysAgo * DAY);
  return {
    over,
    since: since.toISOString(),
    stopsAt: new Date(since.getTime() + 14 * DAY).toISOString(),
    mailboxes: [
      { resourceId: "user-late-0", email: "late0@alpvault-demo.test" },
      { resourceId: "user-late-1", email: null },
    ],
  };
};

describe("the subscription's figures", () => {
  it("when it is read, then plan, renewal date, seats used of total and storage used of maximum show", async () => {
    await openSubscription("geneva", { storage: { used: 12 * GB, maximum: 350 * GB } });
    expect(screen.getByTestId("subscription-plan")).toHaveTextContent("GenevaPremium");
    expect(screen.getByTestId("subscription-renewal")).toHaveTextContent("December 31, 2026");
    expect(screen.getByTestId("subscription-seats")).toHaveTextContent("8 used of 10");
    expect(screen.getByTestId("subscription-storage")).toHaveTextContent("12.00 GB of 350.00 GB");
    const bar = within(screen.getByTestId("subscription-storage")).getByRole("progressbar", {
      name: "Storage",
    });
    expect(Number(bar.getAttribute("aria-valuenow"))).toBeCloseTo((12 / 350) * 100);
    expect(screen.getByRole("link", { name: "Change plan" })).toHaveAttribute("href", "/plans");
  });

  it("when the seats are unlimited and the plan is free, then they say so", async () => {
    await openSubscription("matterhorn", { seats: { used: 2, total: null } });
    expect(screen.getByTestId("subscription-seats")).toHaveTextContent("2 used of Unlimited");
    expect(screen.getByTestId("subscription-plan")).toHaveTextContent("MatterhornFree");
  });

  it("when it is being read, then the figures are placeholders", async () => {
    api.answer(SUBSCRIPTION, aSubscription("geneva"));
    // The session's own plan call (some fields only) is answered; the screen's read waits.
    const held = api.hold(SUBSCRIPTION, (request) => !request.query.fields);
    await renderWithProviders(<SubscriptionScreen />, { route: "/profile/subscription" });
    await waitFor(() => expect(held.arrived).toBe(1));
    for (const row of ["plan", "renewal", "seats", "storage"]) {
      expect(screen.getByTestId(`subscription-${row}`).textContent).toBe("");
    }
    held.release();
    await within(screen.getByTestId("subscription-plan")).findByText("Geneva");
  });

  it("when it cannot be read, then the message shows in an error snackbar and beside Try again, and every figure says Not available", async () => {
    api.fail(SUBSCRIPTION, { code: 503, message: "The billing service is unavailable." });
    const { user } = await renderWithProviders(<SubscriptionScreen />, { route: "/profile/subscription" });
    await expectSnackbar("The billing service is unavailable.", "error");
    for (const row of ["plan", "renewal", "seats", "storage"]) {
      expect(screen.getByTestId(`subscription-${row}`)).toHaveTextContent("Not available");
    }
    const error = screen.getByTestId("subscription-error");
    expect(error).toHaveTextContent("The billing service is unavailable.");
    api.answer(SUBSCRIPTION, aSubscription("geneva"));
    await user.click(within(error).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.queryByTestId("subscription-error")).not.toBeInTheDocument());
  });

  it("when the read fails without a message, then the notice says the generic text", async () => {
    api.fail(SUBSCRIPTION, { code: 500, message: "" });
    await renderWithProviders(<SubscriptionScreen />, { route: "/profile/subscription" });
    expect(await screen.findByTestId("subscription-error")).toHaveTextContent("Something went wrong.");
    await expectSnackbar("Something went wrong.", "error");
  });
});

describe("the auto-add settings", () => {
  it("when auto-add storage is switched on and off, then each is saved and confirmed", async () => {
    api.answer(AUTO_ADD_STORAGE, (request) => ({
      autoAddStorage: (request.body as { enabled: boolean }).enabled,
    }));
    const { user } = await openSubscription();
    const toggle = screen.getByTestId("auto-add-storage");
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await expectSnackbar("Storage will be added automatically", "success");
    expect(toggle).toBeChecked();
    expect(api.lastRequest(AUTO_ADD_STORAGE).body).toEqual({ enabled: true });
    await user.click(toggle);
    await expectSnackbar("Storage will no longer be added automatically", "success");
    expect(toggle).not.toBeChecked();
  });

  it("when saving fails, then the switch reverts with the required error text", async () => {
    api.fail(AUTO_ADD_STORAGE, { code: 500, message: "Unexpected error occurred" });
    const { user } = await openSubscription("geneva", { autoAddStorage: true });
    const toggle = screen.getByTestId("auto-add-storage");
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await expectSnackbar("An error occured, setting not updated.", "error");
    expect(toggle).toBeChecked();
  });

  it("when the network fails, then the switch reverts with the required error text too", async () => {
    api.failNetwork(AUTO_ADD_STORAGE);
    const { user } = await openSubscription();
    await user.click(screen.getByTestId("auto-add-storage"));
    await expectSnackbar("An error occured, setting not updated.", "error");
    expect(screen.getByTestId("auto-add-storage")).not.toBeChecked();
  });

  it("when the API refuses the setting (403), then its own message shows", async () => {
    api.fail(AUTO_ADD_SEATS, { code: 403, message: "The free plan cannot add seats." });
    const { user } = await openSubscription("geneva");
    await user.click(screen.getByTestId("auto-add-seats"));
    await expectSnackbar("The free plan cannot add seats.", "error");
    expect(screen.getByTestId("auto-add-seats")).not.toBeChecked();
  });

  it("when the plan is free, then auto-add seats is disabled and says to upgrade", async () => {
    await openSubscription("matterhorn");
    expect(screen.getByTestId("auto-add-seats")).toBeDisabled();
    expect(
      screen.getByText("The free Matterhorn plan has 2 seats. Upgrade to Geneva or Zürich to add seats."),
    ).toBeInTheDocument();
  });
});

describe("mailboxes beyond the seats", () => {
  it("when the overage is in its grace period, then the alert counts and names them with the date and offers the seats", async () => {
    const { user } = await openSubscription("geneva", {
      seats: { used: 5, total: 2 },
      seatOverage: overage(1),
    });
    const alert = screen.getByTestId("seat-overage");
    expect(alert).toHaveAttribute("data-stopped", "false");
    expect(alert).toHaveTextContent("3 mailboxes beyond your 2 seats");
    expect(alert).toHaveTextContent(
      /Every mailbox is still backed up until .+\. After that, the 3 mailboxes added last/,
    );
    expect(screen.getByTestId("seat-overage-mailboxes")).toHaveTextContent(
      "late0@alpvault-demo.test, user-late-1 and 1 more",
    );
    await user.click(within(alert).getByRole("button", { name: "Add 3 seats" }));
    expect(within(screen.getByTestId("payment-modal")).getByTestId("checkout-purchase")).toHaveTextContent(
      "Geneva plan, 5 seats",
    );
  });

  it("when the grace period is over, then the alert says they are no longer backed up", async () => {
    await openSubscription("geneva", { seats: { used: 5, total: 2 }, seatOverage: overage(15) });
    const alert = screen.getByTestId("seat-overage");
    expect(alert).toHaveAttribute("data-stopped", "true");
    expect(alert).toHaveTextContent("These 3 mailboxes are no longer backed up until you add seats:");
  });

  it("when one mailbox is beyond the free plan's seats, then the alert says it in the singular and offers an upgrade", async () => {
    const { user, router } = await openSubscription("matterhorn", {
      seats: { used: 3, total: 2 },
      seatOverage: { ...overage(15, 1), mailboxes: [{ resourceId: "u", email: "late@alpvault-demo.test" }] },
    });
    const alert = screen.getByTestId("seat-overage");
    expect(alert).toHaveTextContent("1 mailbox beyond your 2 seats");
    expect(alert).toHaveTextContent("This mailbox is no longer backed up until you add a seat:");
    await user.click(within(alert).getByRole("link", { name: "Upgrade" }));
    expect(router.state.location.pathname).toBe("/plans");
  });

  it("when auto-add seats is switched on, then it is saved, confirmed and the subscription is read again", async () => {
    api.answer(AUTO_ADD_SEATS, { autoAddSeats: true });
    const { user } = await openSubscription("geneva", {
      seats: { used: 5, total: 2 },
      seatOverage: overage(1),
    });
    const reads = api.requests(SUBSCRIPTION).length;
    api.answer(SUBSCRIPTION, aSubscription("geneva", { seats: { used: 5, total: 5 }, autoAddSeats: true }));
    await user.click(screen.getByTestId("auto-add-seats"));
    await expectSnackbar("Seats will be added automatically", "success");
    await waitFor(() => expect(screen.queryByTestId("seat-overage")).not.toBeInTheDocument());
    expect(api.requests(SUBSCRIPTION).length).toBeGreaterThan(reads);
    expect(screen.getByTestId("subscription-seats")).toHaveTextContent("5 used of 5");
  });
});

describe("my profile", () => {
  it("when it opens, then the admin's name, email and initials show above My Subscription", async () => {
    api.answer(SUBSCRIPTION, aSubscription("geneva"));
    await renderWithProviders(<ProfileScreen />, { route: "/profile" });
    const account = screen.getByTestId("profile-account");
    expect(account).toHaveTextContent("Ada Brunner");
    expect(account).toHaveTextContent("admin@alpvault-demo.test");
    expect(within(account).getByText("AB")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "My Subscription" })).toBeInTheDocument();
  });
});
