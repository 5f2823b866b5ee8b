/**
 * The storage banner (spec §2, §4): 'almost' from 80%, 'full' at 100%, dismissals that persist and reset
 * when usage falls again, and the upgrade button to the plans route. Usage is set by answering the
 * organisation-details call, since a new organisation has no backups yet.
 */
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
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
let usedBytes = 0;

beforeAll(async () => {
  await onboardDemoOrganization();
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
  await skipResourcesWelcome(page);
  errors = collectPageErrors(page);
  // The organisation details, with the usage this test sets; everything else goes to the API.
  await page.route(
    (url) => /^\/v1\/organizations\/[^/]+$/.test(url.pathname),
    async (route: Route) => {
      const response = await route.fetch();
      const details = (await response.json()) as Record<string, unknown>;
      await route.fulfill({
        response,
        json: { ...details, totalStorage: usedBytes, maximumStorage: 100 * GB },
      });
    },
  );
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await uninstallApp(DEMO_DOMAIN);
});

const banner = () => page.getByTestId("storage-banner");

async function openWithUsage(bytes: number): Promise<void> {
  usedBytes = bytes;
  await page.goto("/resources");
  await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
}

describe("storage banner", () => {
  it("when usage is below 80%, then no banner shows", async () => {
    usedBytes = 50 * GB;
    await demoSignIn(page);
    await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
    expect(await banner().count()).toBe(0);
  });

  it("when usage reaches 80%, then the 'almost full' banner shows with an upgrade button to the plans", async () => {
    await openWithUsage(85 * GB);
    await banner().waitFor();
    expect(await banner().getAttribute("data-kind")).toBe("threshold");
    expect(await banner().innerText()).toContain("almost full: 80%");
    await screenshotBothThemes(page, "storage-banner-almost");
    await banner().getByRole("link", { name: "Upgrade" }).click();
    await page.waitForURL((url) => url.pathname === "/plans");
  });

  it("when the 'almost' banner is closed, then it stays closed after a reload, and the 'full' one still shows at 100%", async () => {
    await openWithUsage(85 * GB);
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

    await openWithUsage(100 * GB);
    await banner().waitFor();
    expect(await banner().getAttribute("data-kind")).toBe("limit");
    expect(await banner().innerText()).toContain("full: 100%");
    await screenshotBothThemes(page, "storage-banner-full");
  });

  it("when usage falls below 80%, then the dismissals are reset and the banner returns at the next 80%", async () => {
    await openWithUsage(100 * GB);
    await banner().getByRole("button", { name: "Close" }).click();
    await openWithUsage(10 * GB);
    await page.waitForFunction(
      (key) => localStorage.getItem(key) === JSON.stringify({ threshold: false, limit: false }),
      DISMISSALS_KEY,
    );
    await openWithUsage(90 * GB);
    await banner().waitFor();
    expect(await banner().getAttribute("data-kind")).toBe("threshold");
  });

  it("when the banner was used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
