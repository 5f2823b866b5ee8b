/**
 * The plans screen (docs/requirements.md#screens-and-navigation, #who-may-do-what, #states-and-flows)
 * against the fake API: the current plan and the upgrades from it, seats and storage packs with their
 * monthly subtotal, the payment modal before the checkout and on the way back (paid, failed, pending,
 * cancelled), and the plan gating of storage.
 */
import { screen, waitFor, within } from "@testing-library/react";
import type { PlanId } from "@alpvault/contracts/plans";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { fill } from "@/testing/fill";
import { aPayment, PLANS_ANSWER } from "@/testing/fixtures/billing";
import { aSubscription } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { PlansScreen } from "./billing-screens";

const PLANS = "GET /plans";
const SUBSCRIPTION = "GET /organizations/:organizationId/subscriptions/:subscriptionId";
const CHECKOUT = "POST /organizations/:organizationId/checkout";
const PAYMENT = "GET /organizations/:organizationId/payments/:checkoutId";

const BLOCKED =
  "Adding storage is not available on the free Matterhorn plan. Upgrade to Geneva or Zürich to add storage.";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(PLANS, PLANS_ANSWER);
});

async function openPlans(plan: PlanId, route = "/plans") {
  api.answer(SUBSCRIPTION, aSubscription(plan));
  const rendered = await renderWithProviders(<PlansScreen />, { route, path: "/plans", plan });
  await screen.findByTestId("plans");
  await waitFor(() => expect(screen.getByTestId(`plan-${plan}`)).toHaveAttribute("data-current", "true"));
  return rendered;
}

const card = (plan: PlanId) => screen.getByTestId(`plan-${plan}`);
const modal = () => screen.getByTestId("payment-modal");

describe("the plans", () => {
  it("when the free plan opens them, then Matterhorn is current, the higher plans offer an upgrade with seats × $3, and storage is blocked", async () => {
    const { user } = await openPlans("matterhorn");
    expect(card("matterhorn")).toHaveTextContent("Up to 2 users");
    expect(card("matterhorn")).toHaveTextContent("Free");
    expect(within(card("matterhorn")).queryByRole("button", { name: "Upgrade" })).not.toBeInTheDocument();
    expect(card("zurich")).toHaveTextContent("100 GB per user");
    expect(card("zurich")).toHaveTextContent("24 backups per day");
    expect(card("zurich")).toHaveTextContent("$3 per user / month");
    await fill(user, screen.getByTestId("seats-zurich"), "4");
    expect(screen.getByTestId("subtotal-zurich")).toHaveTextContent("Subtotal: $12 / month");
    const storage = screen.getByTestId("storage-add-on");
    expect(within(storage).getByTestId("storage-blocked")).toHaveTextContent(BLOCKED);
    expect(within(storage).getByRole("button", { name: "Buy storage" })).toBeDisabled();
    expect(screen.getByTestId("auto-add-seats")).toBeDisabled();
  });

  it("when the plan is Geneva, then the lower plan says to contact support and only Zürich offers an upgrade", async () => {
    await openPlans("geneva");
    expect(screen.getByTestId("downgrade-matterhorn")).toHaveTextContent("Contact support to downgrade");
    expect(screen.getByTestId("downgrade-matterhorn")).toHaveAttribute("href", "mailto:support@alpvault.com");
    expect(within(card("geneva")).queryByRole("button", { name: "Upgrade" })).not.toBeInTheDocument();
    expect(within(card("zurich")).getByRole("button", { name: "Upgrade" })).toBeEnabled();
    expect(screen.queryByTestId("storage-blocked")).not.toBeInTheDocument();
  });

  it("when the plan is Zürich, then it says it is the largest and offers no upgrade", async () => {
    await openPlans("zurich");
    expect(card("zurich")).toHaveTextContent("Zürich is our largest plan.");
    expect(screen.queryByRole("button", { name: "Upgrade" })).not.toBeInTheDocument();
  });

  it("when the seats are not 1 to 10000, then the field says so and Upgrade is disabled", async () => {
    const { user } = await openPlans("matterhorn");
    for (const seats of ["0", "10001", "2.5", ""]) {
      await fill(user, screen.getByTestId("seats-geneva"), seats);
      expect(within(card("geneva")).getByText("Enter 1 to 10000 seats")).toBeInTheDocument();
      expect(within(card("geneva")).getByRole("button", { name: "Upgrade" })).toBeDisabled();
    }
  });

  it("when seats are typed before the subscription is read, then its late answer does not replace them", async () => {
    api.answer(SUBSCRIPTION, aSubscription("matterhorn"));
    // The session reads the subscription first (for its plan); the screen's own read is the one held.
    let reads = 0;
    const held = api.hold(SUBSCRIPTION, () => ++reads > 1);
    const { user } = await renderWithProviders(<PlansScreen />, {
      route: "/plans",
      path: "/plans",
      plan: "matterhorn",
    });
    await waitFor(() => expect(card("matterhorn")).toHaveAttribute("data-current", "true"));
    await fill(user, screen.getByTestId("seats-zurich"), "4");
    await waitFor(() => expect(held.arrived).toBe(1));
    held.release();
    await waitFor(() => expect(screen.getByTestId("seats-geneva")).toHaveValue(8));
    expect(screen.getByTestId("seats-zurich")).toHaveValue(4);
    expect(screen.getByTestId("subtotal-zurich")).toHaveTextContent("Subtotal: $12 / month");
  });

  it("when the seats start, then they are the seats in use", async () => {
    await openPlans("matterhorn");
    expect(screen.getByTestId("seats-geneva")).toHaveValue(8);
    expect(screen.getByTestId("subtotal-geneva")).toHaveTextContent("Subtotal: $24 / month");
  });

  it("when the plans cannot be read, then their message shows in an error snackbar and on the screen", async () => {
    api.fail(PLANS, { code: 503, message: "Plans are being updated." });
    api.answer(SUBSCRIPTION, aSubscription("geneva"));
    await renderWithProviders(<PlansScreen />, { route: "/plans" });
    await expectSnackbar("Plans are being updated.", "error");
    expect(screen.getAllByText("Plans are being updated.")).toHaveLength(2);
  });

  it("when the subscription cannot be read, then its message shows in an error snackbar and the organisation's plan is current with its upgrades", async () => {
    api.fail(SUBSCRIPTION, { code: 503, message: "The billing service is unavailable." });
    await renderWithProviders(<PlansScreen />, { route: "/plans", plan: "geneva" });
    await expectSnackbar("The billing service is unavailable.", "error");
    await waitFor(() => expect(card("geneva")).toHaveAttribute("data-current", "true"));
    expect(within(card("zurich")).getByRole("button", { name: "Upgrade" })).toBeEnabled();
  });
});

describe("the payment modal before the checkout", () => {
  it("when Upgrade is pressed, then it shows the plan, the seats and the subtotal; Cancel buys nothing", async () => {
    const { user } = await openPlans("matterhorn");
    await fill(user, screen.getByTestId("seats-zurich"), "3");
    await user.click(within(card("zurich")).getByRole("button", { name: "Upgrade" }));
    expect(modal()).toHaveAttribute("data-outcome", "review");
    expect(within(modal()).getByTestId("checkout-purchase")).toHaveTextContent("Zürich plan, 3 seats");
    expect(within(modal()).getByTestId("checkout-subtotal")).toHaveTextContent("Subtotal: $9 / month");
    await user.click(within(modal()).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByTestId("payment-modal")).not.toBeInTheDocument());
    expect(api.requests(CHECKOUT)).toHaveLength(0);
  });

  it("when the upgrade is continued, then the checkout is asked with the purchase and a way back, and the browser goes to the payment page", async () => {
    api.answer(CHECKOUT, { checkoutId: "chk-1", url: "http://localhost/#sandbox-checkout-chk-1" });
    const { user } = await openPlans("matterhorn");
    await fill(user, screen.getByTestId("seats-geneva"), "3");
    await user.click(within(card("geneva")).getByRole("button", { name: "Upgrade" }));
    await user.click(within(modal()).getByRole("button", { name: "Continue to payment" }));
    await waitFor(() => expect(window.location.hash).toBe("#sandbox-checkout-chk-1"));
    expect(api.lastRequest(CHECKOUT).body).toEqual({
      purchase: { kind: "upgrade", planId: "geneva", seats: 3 },
      returnUrl: "http://localhost/",
    });
    expect(screen.getByText("Opening the secure payment page…")).toBeInTheDocument();
    expect(within(modal()).getByRole("button", { name: "Continue to payment" })).toBeDisabled();
  });

  it("when the checkout is refused, then the modal closes with the API's message", async () => {
    api.fail(CHECKOUT, { code: 409, message: "A checkout is already open." });
    const { user } = await openPlans("matterhorn");
    await user.click(within(card("geneva")).getByRole("button", { name: "Upgrade" }));
    await user.click(within(modal()).getByRole("button", { name: "Continue to payment" }));
    await expectSnackbar("A checkout is already open.", "error");
    await waitFor(() => expect(screen.queryByTestId("payment-modal")).not.toBeInTheDocument());
  });

  it("when two storage packs are bought, then the subtotal is $6 and the modal names 200 GB", async () => {
    api.answer(CHECKOUT, { checkoutId: "chk-2", url: "http://localhost/#sandbox-checkout-chk-2" });
    const { user } = await openPlans("geneva");
    const storage = screen.getByTestId("storage-add-on");
    await fill(user, within(storage).getByTestId("storage-packs"), "2");
    expect(within(storage).getByTestId("storage-subtotal")).toHaveTextContent("Subtotal: $6 / month");
    await user.click(within(storage).getByRole("button", { name: "Buy storage" }));
    expect(within(modal()).getByTestId("checkout-purchase")).toHaveTextContent("2 storage packs (200 GB)");
    expect(within(modal()).getByTestId("checkout-subtotal")).toHaveTextContent("Subtotal: $6 / month");
    await user.click(within(modal()).getByRole("button", { name: "Continue to payment" }));
    await waitFor(() => expect(api.requests(CHECKOUT)).toHaveLength(1));
    expect(api.lastRequest(CHECKOUT).body).toMatchObject({ purchase: { kind: "storage", packs: 2 } });
  });

  it("when the storage checkout fails on the server, then the snackbar says the storage could not be purchased", async () => {
    api.fail(CHECKOUT, { code: 502, message: "Bad gateway" });
    const { user } = await openPlans("geneva");
    await user.click(
      within(screen.getByTestId("storage-add-on")).getByRole("button", { name: "Buy storage" }),
    );
    await user.click(within(modal()).getByRole("button", { name: "Continue to payment" }));
    await expectSnackbar("The storage could not be purchased. Please try again or contact support.", "error");
  });

  it("when the packs are not 1 to 1000, then the field says so and Buy storage is disabled", async () => {
    const { user } = await openPlans("geneva");
    const storage = screen.getByTestId("storage-add-on");
    await fill(user, within(storage).getByTestId("storage-packs"), "1001");
    expect(within(storage).getByText("Enter 1 to 1000 packs")).toBeInTheDocument();
    expect(within(storage).getByRole("button", { name: "Buy storage" })).toBeDisabled();
  });
});

describe("the payment modal on the way back", () => {
  const upgrade = { kind: "upgrade", planId: "geneva", seats: 3 } as const;

  it.each([
    ["failed", "Payment failed", "Oops! Your payment failed. Please try again or contact support."],
    [
      "pending",
      "Payment pending",
      "Your payment is pending. Your subscription changes as soon as the payment is confirmed.",
    ],
    ["cancelled", "Payment cancelled", "Payment cancelled. Nothing was charged."],
  ] as const)(
    "when the payment is %s, then the modal says so in the required words",
    async (state, title, text) => {
      api.answer(PAYMENT, aPayment(state, upgrade));
      const { user, router } = await openPlans("matterhorn", "/plans?checkout=chk-1");
      await waitFor(() => expect(modal()).toHaveAttribute("data-outcome", state));
      expect(screen.getByRole("dialog", { name: title })).toBeInTheDocument();
      expect(within(modal()).getByTestId("payment-message")).toHaveTextContent(text);
      expect(api.lastRequest(PAYMENT).params.checkoutId).toBe("chk-1");
      if (state === "failed") {
        expect(within(modal()).getByRole("link", { name: "Contact support" })).toHaveAttribute(
          "href",
          "mailto:support@alpvault.com",
        );
      }
      await user.click(within(modal()).getByRole("button", { name: "Close" }));
      await waitFor(() => expect(screen.queryByTestId("payment-modal")).not.toBeInTheDocument());
      expect(router.state.location.search).toBe("");
    },
  );

  it("when the upgrade is paid, then 'Payment successful' shows in the modal and the snackbar, and the subscription is read again", async () => {
    api.answer(PAYMENT, aPayment("paid", upgrade));
    await openPlans("matterhorn", "/plans?checkout=chk-1");
    await waitFor(() => expect(modal()).toHaveAttribute("data-outcome", "paid"));
    expect(screen.getByRole("dialog", { name: "Payment successful" })).toHaveTextContent(
      "Thank you! Your subscription is updated.",
    );
    await expectSnackbar("Payment successful", "success");
    await waitFor(() =>
      expect(api.requests(SUBSCRIPTION).filter((request) => !request.query.fields)).toHaveLength(2),
    );
  });

  it("when storage is paid, then the modal and the snackbar say the storage was purchased", async () => {
    api.answer(PAYMENT, aPayment("paid", { kind: "storage", packs: 2 }));
    await openPlans("geneva", "/plans?checkout=chk-1");
    await waitFor(() => expect(modal()).toHaveAttribute("data-outcome", "paid"));
    expect(within(modal()).getByTestId("payment-message")).toHaveTextContent(
      "Storage purchased. Your new storage is available now.",
    );
    await expectSnackbar("Storage purchased", "success");
  });

  it("when the payment cannot be read, then the modal says the payment failed", async () => {
    api.fail(PAYMENT, { code: 404, message: "Payment not found" });
    await openPlans("matterhorn", "/plans?checkout=chk-1");
    await waitFor(() => expect(modal()).toHaveAttribute("data-outcome", "failed"));
  });

  it("when the provider has not reported yet, then the modal waits, and cannot be closed", async () => {
    api.answer(PAYMENT, aPayment("open", upgrade));
    await openPlans("matterhorn", "/plans?checkout=chk-1");
    await waitFor(() => expect(api.requests(PAYMENT).length).toBeGreaterThan(0));
    expect(modal()).toHaveAttribute("data-outcome", "checking");
    expect(screen.getByRole("dialog", { name: "Confirming your payment…" })).toBeInTheDocument();
    expect(within(modal()).queryByRole("button", { name: "Close" })).not.toBeInTheDocument();
  });
});
