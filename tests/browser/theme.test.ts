import type { Browser, BrowserContext, Page } from "playwright-core";
import { demoSignIn, PREFERENCES_KEY, readPreferences } from "./support/app";
import { launchBrowser, newContext, screenshot } from "./support/browser";
import {
  DEMO_DOMAIN,
  onboardDemoOrganization,
  skipResourcesWelcome,
  uninstallApp,
} from "./support/onboarding";

jest.setTimeout(60_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  await onboardDemoOrganization();
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await uninstallApp(DEMO_DOMAIN);
});

/** The page background, which the theme sets through CssBaseline. */
function bodyBackground(): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

function isDark(rgb: string): boolean {
  const [r = 255, g = 255, b = 255] = (rgb.match(/\d+/g) ?? []).map(Number);
  return (r + g + b) / 3 < 128;
}

describe("light and dark theme", () => {
  it("when no script has run yet, then the first paint already shows the console's name, on the stored theme's background", async () => {
    const { context: bare } = await newContext(browser);
    const early = await bare.newPage();
    // The scripts never arrive: what shows is the page itself.
    await early.route("**/*.js", (route) => route.abort());
    await early.route("**/src/**", (route) => route.abort());
    await early.goto("/login");
    expect(await early.getByTestId("boot-screen").innerText()).toContain("Alpvault");
    const background = () => early.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(isDark(await background())).toBe(false);
    await early.evaluate(
      (key) => window.localStorage.setItem(key, JSON.stringify({ theme: "dark", locale: "en" })),
      PREFERENCES_KEY,
    );
    await early.reload();
    expect(isDark(await background())).toBe(true);
    await bare.close();
  });

  it("when nothing is stored yet, then the light theme is used and the defaults are written back", async () => {
    await page.goto("/login");
    await page.evaluate(() => window.localStorage.clear());
    await page.reload();
    await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
    expect(isDark(await bodyBackground())).toBe(false);
    expect(await readPreferences(page)).toEqual({ theme: "light", locale: "en" });
  });

  it("when a stored value is null, then it is replaced by its default and written back", async () => {
    await page.evaluate(
      (key) => window.localStorage.setItem(key, JSON.stringify({ theme: null, locale: "en" })),
      PREFERENCES_KEY,
    );
    await page.reload();
    await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
    expect(await readPreferences(page)).toEqual({ theme: "light", locale: "en" });
  });

  it("when the stored preferences are not JSON, then the app starts with the defaults and writes them back", async () => {
    await page.evaluate((key) => window.localStorage.setItem(key, "{not json"), PREFERENCES_KEY);
    await page.reload();
    await page.getByRole("heading", { name: "Sign in to Alpvault" }).waitFor();
    expect(isDark(await bodyBackground())).toBe(false);
    expect(await readPreferences(page)).toEqual({ theme: "light", locale: "en" });
  });

  it("when the user toggles the theme in the shell, then it switches to dark and back to light", async () => {
    await skipResourcesWelcome(page);
    await demoSignIn(page);
    await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
    await screenshot(page, "shell-light");
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await page.getByRole("button", { name: "Switch to light theme" }).waitFor();
    expect(isDark(await bodyBackground())).toBe(true);
    expect(await readPreferences(page)).toEqual({ theme: "dark", locale: "en" });
    await screenshot(page, "shell-dark");
  });

  it("when the page reloads, then the dark theme is kept", async () => {
    await page.reload();
    await page.getByRole("button", { name: "Switch to light theme" }).waitFor();
    expect(isDark(await bodyBackground())).toBe(true);
    await page.goto("/policies");
    await page.getByRole("heading", { level: 1, name: "Backup Policies" }).waitFor();
    await screenshot(page, "policies-dark");
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await page.reload();
    await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
    expect(isDark(await bodyBackground())).toBe(false);
  });
});
