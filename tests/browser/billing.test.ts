/**
 * Plans, payments and the subscription in the browser (docs/requirements.md#screens-and-navigation, #states-and-flows, #who-may-do-what, #errors-and-messages) for the demo organisation:
 * upgrades that end in each payment outcome on the local sandbox checkout page, the storage add-on
 * (blocked on the free plan, bought on a paid one), the subscription figures and the auto-add-storage
 * switch. The demo organisation's account is restored afterwards (other files use it).
 */
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { setAccount, withRegionDb } from "../support/organizations";
import { PREFERENCES_KEY } from "./support/app";
import { screenshot } from "./support/browser";
import { onboardDemoOrganization, screenshotBothThemes } from "./support/onboarding";

jest.setTimeout(120_000);

const GB = 1024 ** 3;
const FAILED_TEXT = "Oops! Your payment failed. Please try again or contact support.";
const BLOCKED_TEXT =
  "Adding storage is not available on the free Matterhorn plan. Upgrade to Geneva or Zürich to add storage.";
const FREE_ACCOUNT = {
  planId: "matterhorn" as const,
  seats: 2,
  storagePacks: 0,
  autoAddStorage: false,
  autoAddSeats: false,
  seatOverage: { since: null, unseated: [] },
  graceful: { state: "none" as const, startedAt: null, stopsAt: null },
};

/** The audit operations this file causes on the demo organisation (removed again in afterAll). */
const BILLING_OPERATIONS = [
  "pricing-tier.updated",
  "licenses.updated",
  "storage-packs.updated",
  "storage-settings.updated",
  "seat-settings.updated",
  "seats.added",
  "graceful-period.started",
  "graceful-period.reset",
  "backups.stopped",
];

let organization: OrganizationSummary;
let startedAt: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

/**
 * Leaves the demo organisation as this file found it: the free account, and none of the payments, billing
 * alerts and billing audit entries it made (other files count the demo organisation's entries).
 */
async function restoreDemoOrganization(): Promise<void> {
  await setAccount(organization, FREE_ACCOUNT);
  const regionId = organization.subscriptions[0]?.region.id ?? "ch";
  await withRegionDb(`region-${regionId}`, async (db) => {
    const ref = db.collection("organizations").doc(organization.organizationId);
    const [audit, alerts, payments, events] = await Promise.all([
      ref.collection("auditLogs").where("date", ">=", startedAt).get(),
      ref.collection("alerts").where("kind", "==", "billing").get(),
      ref.collection("payments").get(),
      ref.collection("paymentEvents").get(),
    ]);
    const writer = db.bulkWriter();
    for (const doc of audit.docs) {
      if (BILLING_OPERATIONS.includes(doc.get("operation") as string)) void writer.delete(doc.ref);
    }
    for (const doc of [...alerts.docs, ...payments.docs, ...events.docs]) void writer.delete(doc.ref);
    await writer.close();
  });
}

beforeAll(async () => {
  startedAt = new Date().toISOString();
  organization = await onboardDemoOrganization();
  await setAccount(organization, FREE_ACCOUNT);
  ({ browser, context, page, errors } = await signedInDemoPage());
});

afterAll(() => closeDemoPage({ browser, context }, organization ? restoreDemoOrganization : undefined));

const modal = () => page.getByTestId("payment-modal");
const snackbar = () => page.getByTestId("snackbar");

async function openPlans(): Promise<void> {
  // The subscription is read twice: by the session (its plan) and by the screen (seats in use, the plan).
  // Until the screen's answer is in, the current plan is the session's and the seats start at 1.
  let subscriptionReads = 0;
  let bothRead: () => void = () => undefined;
  const read = new Promise<void>((resolve) => (bothRead = resolve));
  const onResponse = (response: Response) => {
    if (/\/organizations\/[^/]+\/subscriptions\/[^/?]+$/.test(new URL(response.url()).pathname)) {
      subscriptionReads += 1;
      if (subscriptionReads >= 2) bothRead();
    }
  };
  page.on("response", onResponse);
  try {
    await page.goto("/plans");
    await page.getByRole("heading", { level: 1, name: "Plans and upgrade" }).waitFor();
    await page.getByTestId("plan-matterhorn").waitFor();
    await page.locator('[data-testid^="plan-"][data-current="true"]').waitFor();
    await read;
  } finally {
    page.off("response", onResponse);
  }
}

/** Upgrades to `planId` with `seats` and lands on the sandbox checkout page. */
async function upgrade(planId: "geneva" | "zurich", seats: number): Promise<void> {
  await openPlans();
  await page.getByTestId(`seats-${planId}`).fill(String(seats));
  await page.getByTestId(`plan-${planId}`).getByRole("button", { name: "Upgrade" }).click();
  await continueToPayment();
  await page.waitForURL((url) => url.pathname.startsWith("/v1/payments/sandbox/"));
  await page.getByRole("heading", { name: "Sandbox checkout" }).waitFor();
}

/** The payment modal before the checkout: the purchase is confirmed, and the payment page opens. */
async function continueToPayment(): Promise<void> {
  await page.locator('[data-testid="payment-modal"][data-outcome="review"]').waitFor();
  await modal().getByRole("button", { name: "Continue to payment" }).click();
}

/** Chooses the outcome on the sandbox page and waits for the payment modal's outcome on the way back. */
async function finishCheckout(button: string, outcome: string): Promise<string> {
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.has("checkout"));
  await page.locator(`[data-testid="payment-modal"][data-outcome="${outcome}"]`).waitFor();
  return (await modal().getByTestId("payment-message").textContent()) ?? "";
}

async function closeModal(): Promise<void> {
  await modal().getByRole("button", { name: "Close" }).click();
  await modal().waitFor({ state: "detached" });
  expect(new URL(page.url()).searchParams.has("checkout")).toBe(false);
}

/** The modal sits above the theme toggle, so the dark screenshot switches the stored theme and reloads. */
async function screenshotModalBothThemes(name: string, outcome: string): Promise<void> {
  await screenshot(page, name);
  const setTheme = (theme: string) =>
    page.evaluate(
      ([key, value]) => window.localStorage.setItem(key, JSON.stringify({ theme: value, locale: "en" })),
      [PREFERENCES_KEY, theme] as const,
    );
  await setTheme("dark");
  await page.reload();
  await page.locator(`[data-testid="payment-modal"][data-outcome="${outcome}"]`).waitFor();
  await screenshot(page, `${name}-dark`);
  await setTheme("light");
  await page.reload();
  await page.locator(`[data-testid="payment-modal"][data-outcome="${outcome}"]`).waitFor();
}

describe("plans and payments", () => {
  it("when the free plan opens the plans, then Matterhorn is current, higher plans offer an upgrade with a subtotal of seats × 3, and storage is blocked with an upgrade prompt", async () => {
    await openPlans();
    expect(await page.getByTestId("plan-matterhorn").getAttribute("data-current")).toBe("true");
    expect(await page.getByTestId("plan-matterhorn").innerText()).toContain("Up to 2 users");
    expect(await page.getByTestId("plan-zurich").innerText()).toContain("100 GB per user");
    expect(await page.getByTestId("plan-zurich").innerText()).toContain("24 backups per day");
    await page.getByTestId("seats-zurich").fill("4");
    expect(await page.getByTestId("seats-zurich").inputValue()).toBe("4");
    expect(await page.getByTestId("subtotal-zurich").innerText()).toBe("Subtotal: $12 / month");
    expect(await page.getByTestId("plan-matterhorn").getByRole("button", { name: "Upgrade" }).count()).toBe(
      0,
    );

    const storage = page.getByTestId("storage-add-on");
    expect(await storage.getByTestId("storage-blocked").innerText()).toContain(BLOCKED_TEXT);
    expect(await storage.getByRole("button", { name: "Buy storage" }).isDisabled()).toBe(true);
    await screenshotBothThemes(page, "plans-free");
  });

  it("when Upgrade is pressed, then the payment modal shows the plan, the seats and the monthly subtotal; Cancel buys nothing and stays on the plans", async () => {
    await openPlans();
    await page.getByTestId("seats-zurich").fill("3");
    await page.getByTestId("plan-zurich").getByRole("button", { name: "Upgrade" }).click();
    await page.locator('[data-testid="payment-modal"][data-outcome="review"]').waitFor();
    expect(await modal().getByTestId("checkout-purchase").innerText()).toBe("Zürich plan, 3 seats");
    expect(await modal().getByTestId("checkout-subtotal").innerText()).toBe("Subtotal: $9 / month");
    // The dialog's buttons keep the content's inset from its edges (24 px), not MUI's 8 px.
    const [paper, button] = await Promise.all([
      modal().locator(".MuiDialog-paper").boundingBox(),
      modal().getByRole("button", { name: "Continue to payment" }).boundingBox(),
    ]);
    expect(paper && button && paper.x + paper.width - (button.x + button.width)).toBeGreaterThanOrEqual(24);
    await screenshot(page, "payment-review");
    await modal().getByRole("button", { name: "Cancel" }).click();
    await modal().waitFor({ state: "detached" });
    // The dialog covers the theme toggle: switch the theme first, then open it again.
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await page.getByTestId("plan-zurich").getByRole("button", { name: "Upgrade" }).click();
    await page.locator('[data-testid="payment-modal"][data-outcome="review"]').waitFor();
    await screenshot(page, "payment-review-dark");
    await modal().getByRole("button", { name: "Cancel" }).click();
    await modal().waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/plans");
    expect(await page.getByTestId("plan-matterhorn").getAttribute("data-current")).toBe("true");
  });

  it("when the upgrade payment fails, then the modal shows the exact failure text, the plan stays, and the resources screen says the payment was declined without any graceful period", async () => {
    await upgrade("zurich", 3);
    await screenshot(page, "payment-sandbox-checkout");
    expect(await finishCheckout("Fail", "failed")).toBe(FAILED_TEXT);
    await screenshotModalBothThemes("payment-failed", "failed");
    await closeModal();
    expect(await page.getByTestId("plan-matterhorn").getAttribute("data-current")).toBe("true");

    await page.goto("/resources");
    await page
      .getByText(
        "A payment was declined: nothing was bought, your subscription and backups are unchanged. Try again or use another payment method.",
      )
      .first()
      .waitFor();
    // Declining an extra never puts backups at risk: only a failed renewal starts the graceful period.
    expect(await page.getByText(/Backups stop on/).count()).toBe(0);
  });

  it("when the payment is left pending, then the modal says it is pending and the plan stays", async () => {
    await upgrade("zurich", 3);
    expect(await finishCheckout("Leave pending", "pending")).toBe(
      "Your payment is pending. Your subscription changes as soon as the payment is confirmed.",
    );
    await screenshot(page, "payment-pending");
    await closeModal();
    expect(await page.getByTestId("plan-matterhorn").getAttribute("data-current")).toBe("true");
  });

  it("when the payment is cancelled, then the modal says nothing was charged and the plan stays", async () => {
    await upgrade("geneva", 3);
    expect(await finishCheckout("Cancel", "cancelled")).toBe("Payment cancelled. Nothing was charged.");
    await screenshot(page, "payment-cancelled");
    await closeModal();
    expect(await page.getByTestId("plan-matterhorn").getAttribute("data-current")).toBe("true");
  });

  it("when the upgrade to Geneva is paid, then 'Payment successful' shows, Geneva is current and lower plans say to contact support", async () => {
    await upgrade("geneva", 3);
    expect(await finishCheckout("Pay", "paid")).toBe("Thank you! Your subscription is updated.");
    await snackbar().waitFor();
    expect(await snackbar().innerText()).toContain("Payment successful");
    await screenshotModalBothThemes("payment-success", "paid");
    await closeModal();
    await page.locator('[data-testid="plan-geneva"][data-current="true"]').waitFor();
    expect(await page.getByTestId("downgrade-matterhorn").innerText()).toBe("Contact support to downgrade");
    expect(await page.getByTestId("plan-zurich").getByRole("button", { name: "Upgrade" }).count()).toBe(1);
    await screenshotBothThemes(page, "plans-geneva");
  });

  it("when a paid plan buys two storage packs, then the subtotal is $6, 'Storage purchased' shows, the maximum storage grows by 200 GB and the storage banner follows", async () => {
    // 300 GB used: the full banner against Geneva's 3 × 50 GB, 'almost full' once 200 GB are added.
    const details = (url: URL) => /^\/v1\/organizations\/[^/]+$/.test(url.pathname);
    await page.route(details, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      // A reload still in flight when the page leaves for the checkout is dropped by the browser, and
      // Playwright then counts its route as handled: nothing is left to answer.
      await route.fulfill({ response, json: { ...body, totalStorage: 300 * GB } }).catch((error: unknown) => {
        if (!String(error).includes("Route is already handled")) throw error;
      });
    });
    await openPlans();
    await page.locator('[data-testid="storage-banner"][data-kind="limit"]').waitFor();
    const storage = page.getByTestId("storage-add-on");
    expect(await storage.getByTestId("storage-blocked").count()).toBe(0);
    await storage.getByTestId("storage-packs").fill("2");
    expect(await storage.getByTestId("storage-subtotal").innerText()).toBe("Subtotal: $6 / month");
    await storage.getByRole("button", { name: "Buy storage" }).click();
    expect(await modal().getByTestId("checkout-purchase").innerText()).toBe("2 storage packs (200 GB)");
    expect(await modal().getByTestId("checkout-subtotal").innerText()).toBe("Subtotal: $6 / month");
    await continueToPayment();
    await page.waitForURL((url) => url.pathname.startsWith("/v1/payments/sandbox/"));
    expect(await page.locator("body").innerText()).toContain("Storage pack (100 GB)");
    expect(await finishCheckout("Pay", "paid")).toBe("Storage purchased. Your new storage is available now.");
    await snackbar().waitFor();
    expect(await snackbar().innerText()).toContain("Storage purchased");
    await closeModal();
    await page.locator('[data-testid="storage-banner"][data-kind="threshold"]').waitFor();
    await page.unroute(details);

    await page.goto("/profile/subscription");
    await page.getByTestId("subscription-plan").getByText("Geneva").waitFor();
    // Geneva: 3 seats × 50 GB, plus 2 packs × 100 GB.
    expect(await page.getByTestId("subscription-storage").innerText()).toMatch(/ of 350\.00 GB/);
  });
});

describe("subscription", () => {
  it("when the subscription page opens, then it shows plan, renewal date, seats used of the seats bought and storage used of maximum", async () => {
    await page.goto("/profile/subscription");
    await page.getByRole("heading", { level: 1, name: "My Subscription" }).waitFor();
    await page.getByTestId("subscription-plan").getByText("Geneva").waitFor();
    expect(await page.getByTestId("subscription-plan").innerText()).toContain("Premium");
    expect(await page.getByTestId("subscription-renewal").innerText()).toMatch(/\d{4}/);
    expect(await page.getByTestId("subscription-seats").innerText()).toMatch(/^\d+ used of 3$/);
    expect(await page.getByTestId("subscription-storage").innerText()).toMatch(
      /^\d+\.\d{2} [KMG]?B of 350\.00 GB/,
    );
    await screenshotBothThemes(page, "subscription-geneva");
  });

  it("when auto-add storage is switched on, then it is saved; when saving fails, then the switch reverts with the required error text", async () => {
    await page.goto("/profile/subscription");
    const toggle = page.getByTestId("auto-add-storage");
    await page.getByTestId("subscription-plan").getByText("Geneva").waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await snackbar().getByText("Storage will be added automatically").waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await page.reload();
    await page.getByTestId("subscription-plan").getByText("Geneva").waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="auto-add-storage"]') as HTMLInputElement | null)?.checked ===
        true,
    );

    await page.route("**/v1/organizations/*/settings/auto-add-storage", (route) =>
      route.fulfill({ status: 500, json: { code: 500, message: "Unexpected error occurred" } }),
    );
    await toggle.click();
    await snackbar().getByText("An error occured, setting not updated.").waitFor();
    expect(await snackbar().getAttribute("data-error")).toBe("true");
    expect(await toggle.isChecked()).toBe(true);
    await page.unroute("**/v1/organizations/*/settings/auto-add-storage");
  });

  it("when the plans open, then the auto-add-storage setting is there too and follows the saved setting", async () => {
    await openPlans();
    const storage = page.getByTestId("storage-add-on");
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="auto-add-storage"]') as HTMLInputElement | null)?.disabled ===
        false,
    );
    // The previous test left it on.
    expect(await storage.getByTestId("auto-add-storage").isChecked()).toBe(true);
    await storage.getByTestId("auto-add-storage").click();
    await snackbar().getByText("Storage will no longer be added automatically").waitFor();
    expect(await storage.getByTestId("auto-add-storage").isChecked()).toBe(false);
  });

  it("when the plan data cannot be read, then its message shows in an error snackbar, the figures stop loading, the plans still offer upgrades, and Try again reads it", async () => {
    const subscriptionCall = (url: URL) =>
      /^\/v1\/organizations\/[^/]+\/subscriptions\/[^/]+$/.test(url.pathname);
    await page.route(subscriptionCall, (route) =>
      route.fulfill({ status: 503, json: { code: 503, message: "The billing service is unavailable." } }),
    );
    await page.goto("/profile");
    await snackbar().getByText("The billing service is unavailable.").waitFor();
    expect(await snackbar().getAttribute("data-error")).toBe("true");
    for (const row of ["plan", "renewal", "seats", "storage"]) {
      await page.getByTestId(`subscription-${row}`).getByText("Not available").waitFor();
    }
    expect(await page.getByTestId("subscription").locator(".MuiSkeleton-root").count()).toBe(0);
    await screenshotBothThemes(page, "subscription-unavailable");

    await page.goto("/plans");
    await snackbar().getByText("The billing service is unavailable.").waitFor();
    // The organisation's answers still name its plan: Geneva is current, Zürich offers an upgrade.
    await page.locator('[data-testid="plan-geneva"][data-current="true"]').waitFor();
    expect(await page.getByTestId("plan-zurich").getByRole("button", { name: "Upgrade" }).count()).toBe(1);

    await page.unroute(subscriptionCall);
    await page.route(subscriptionCall, (route) =>
      route.fulfill({ status: 500, json: { code: 500, message: "" } }),
    );
    await page.goto("/profile");
    await page.getByTestId("subscription-error").getByText("Something went wrong.").waitFor();
    await page.unroute(subscriptionCall);
    await page.getByTestId("subscription-error").getByRole("button", { name: "Try again" }).click();
    await page.getByTestId("subscription-plan").getByText("Geneva").waitFor();
    await page.getByTestId("subscription-error").waitFor({ state: "detached" });
  });

  it("when mailboxes outnumber the seats, then an alert names them with the date they stop being backed up and offers the seats; after that date it says they are not backed up; auto-add seats adds them", async () => {
    await page.goto("/profile/subscription");
    const seatsRow = page.getByTestId("subscription-seats");
    await seatsRow.getByText(/ used of /).waitFor();
    const used = Number(
      /^(\d+) used/.exec(await seatsRow.innerText().then((text) => text.split("\n").pop() ?? ""))?.[1],
    );
    expect(used).toBeGreaterThan(2);
    const over = used - 2;
    const unseated = Array.from({ length: over }, (_, index) => ({
      resourceId: `user-late-${index}`,
      email: `late${index}@alpvault-demo.test`,
    }));
    const since = new Date();
    await setAccount(organization, {
      planId: "geneva",
      seats: 2,
      autoAddSeats: false,
      seatOverage: { since: since.toISOString(), unseated },
    });
    await page.reload();
    const alert = page.getByTestId("seat-overage");
    await alert.waitFor();
    expect(await alert.getAttribute("data-stopped")).toBe("false");
    expect(await alert.innerText()).toContain(`${over} mailboxes beyond your 2 seats`);
    // The console's one way of writing a day (web/src/lib/format.ts formatDate): the UTC day, long.
    const stopsOn = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(since.getTime() + 14 * 86_400_000),
    );
    expect(await alert.innerText()).toContain(`backed up until ${stopsOn}`);
    expect(await page.getByTestId("seat-overage-mailboxes").innerText()).toContain(
      "late0@alpvault-demo.test",
    );
    await screenshotBothThemes(page, "subscription-seat-overage");

    await alert.getByRole("button", { name: `Add ${over} seats` }).click();
    await page.locator('[data-testid="payment-modal"][data-outcome="review"]').waitFor();
    expect(await modal().innerText()).toContain(`Geneva plan, ${used} seats`);
    await modal().getByRole("button", { name: "Cancel" }).click();
    await modal().waitFor({ state: "detached" });

    await setAccount(organization, {
      seatOverage: { since: new Date(since.getTime() - 15 * 86_400_000).toISOString(), unseated },
    });
    await page.reload();
    await page.locator('[data-testid="seat-overage"][data-stopped="true"]').waitFor();
    expect(await alert.innerText()).toContain(
      `These ${over} mailboxes are no longer backed up until you add seats`,
    );

    await page.getByTestId("auto-add-seats").click();
    await snackbar().getByText("Seats will be added automatically").waitFor();
    await alert.waitFor({ state: "detached" });
    await seatsRow.getByText(`${used} used of ${used}`).waitFor();
  });

  it("when My profile opens, then the admin and My Subscription show", async () => {
    await page.goto("/profile");
    await page.getByRole("heading", { level: 1, name: "My profile" }).waitFor();
    expect(await page.getByTestId("profile-account").innerText()).toContain("Ada Brunner");
    await page.getByTestId("subscription-plan").getByText("Geneva").waitFor();
    await screenshotBothThemes(page, "profile-with-subscription");
  });

  it("when billing was used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
