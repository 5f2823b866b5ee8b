/**
 * The storage banner (docs/requirements.md#screens-and-navigation, #states-and-flows): 'almost' from 80%, 'full' at 100%, dismissals that persist and reset
 * when usage falls again, and the upgrade button to the plans route. Usage is the organisation's real
 * total: the test sets the backup size of the demo admin's mailbox (what the backup engine records) and
 * puts it back afterwards; the maximum is the free plan's 2 × 15 GB.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";
import { withRegionDb } from "../support/organizations";
import { demoSignIn } from "./support/app";
import { collectPageErrors, launchBrowser, newContext } from "./support/browser";
import {
  DEMO_DOMAIN,
  onboardDemoOrganization,
  screenshotBothThemes,
  skipResourcesWelcome,
  uninstallApp,
} from "./support/onboarding";

jest.setTimeout(90_000);

const GB = 1024 ** 3;
const DISMISSALS_KEY = "alpvault:storageBannerDismissals";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let organization: OrganizationSummary;

/** The free plan's maximum: 2 seats × 15 GB. */
const MAXIMUM = 30 * GB;

/** Records `bytes` as the backup size of the demo admin's mailbox: the organisation's whole usage. */
async function setUsage(bytes: number): Promise<void> {
  await withRegionDb(`region-${organization.subscriptions[0]?.region.id ?? "ch"}`, (db) =>
    db
      .collection("organizations")
      .doc(organization.organizationId)
      .collection("resources")
      .doc(`user-${DEMO_GOOGLE_USER.sub}`)
      .update({ mailBackupBytes: Math.round(bytes) }),
  );
}

beforeAll(async () => {
  organization = await onboardDemoOrganization();
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
  await skipResourcesWelcome(page);
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  if (organization) await setUsage(0);
  await uninstallApp(DEMO_DOMAIN);
});

const banner = () => page.getByTestId("storage-banner");

async function openWithUsage(bytes: number): Promise<void> {
  await setUsage(bytes);
  await page.goto("/resources");
  await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
}

describe("storage banner", () => {
  it("when usage is below 80%, then no banner shows", async () => {
    await setUsage(0.5 * MAXIMUM);
    await demoSignIn(page);
    await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
    expect(await banner().count()).toBe(0);
  });

  it("when usage reaches 80%, then the 'almost full' banner shows with an upgrade button to the plans", async () => {
    await openWithUsage(0.85 * MAXIMUM);
    await banner().waitFor();
    expect(await banner().getAttribute("data-kind")).toBe("threshold");
    expect(await banner().innerText()).toContain("almost full: 80%");
    await screenshotBothThemes(page, "storage-banner-almost");
    await banner().getByRole("link", { name: "Upgrade" }).click();
    await page.waitForURL((url) => url.pathname === "/plans");
  });

  it("when the 'almost' banner is closed, then it stays closed after a reload, and the 'full' one still shows at 100%", async () => {
    await openWithUsage(0.85 * MAXIMUM);
    await banner().getByRole("button", { name: "Close" }).click();
    expect(await banner().count()).toBe(0);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
    expect(await banner().count()).toBe(0);
    expect(
      JSON.parse((await page.evaluate((key) => localStorage.getItem(key), DISMISSALS_KEY)) ?? "null"),
    ).toEqual({
      threshold: true,
      limit: false,
    });

    await openWithUsage(MAXIMUM);
    await banner().waitFor();
    expect(await banner().getAttribute("data-kind")).toBe("limit");
    expect(await banner().innerText()).toContain("full: 100%");
    await screenshotBothThemes(page, "storage-banner-full");
  });

  it("when usage falls below 80%, then the dismissals are reset and the banner returns at the next 80%", async () => {
    await openWithUsage(MAXIMUM);
    await banner().getByRole("button", { name: "Close" }).click();
    await openWithUsage(0.1 * MAXIMUM);
    await page.waitForFunction(
      (key) => localStorage.getItem(key) === JSON.stringify({ threshold: false, limit: false }),
      DISMISSALS_KEY,
    );
    await openWithUsage(0.9 * MAXIMUM);
    await banner().waitFor();
    expect(await banner().getAttribute("data-kind")).toBe("threshold");
  });

  it("when the banner was used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
