import type { Browser, BrowserContext, Page } from "playwright-core";
import { readPreferences } from "./support/app";
import { launchBrowser, newContext, screenshot } from "./support/browser";

jest.setTimeout(60_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("French locale stub", () => {
  it("when the user chooses Français, then the French texts show and missing ones fall back to English", async () => {
    await page.goto("/login");
    await page.getByRole("heading", { name: "Sign in to Alpvault" }).waitFor();
    await page.getByRole("button", { name: "Language" }).click();
    await page.getByRole("menuitem", { name: "Français" }).click();
    await page.getByRole("heading", { name: "Connexion à Alpvault" }).waitFor();
    await page.getByRole("button", { name: "Se connecter avec Google" }).waitFor();
    // Not in the stub: English is used.
    await page.getByRole("button", { name: "Demo sign-in" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
    expect(await readPreferences(page)).toEqual({ theme: "light", locale: "fr" });
    await screenshot(page, "login-fr");
  });

  it("when the page reloads, then French is kept", async () => {
    await page.reload();
    await page.getByRole("heading", { name: "Connexion à Alpvault" }).waitFor();
  });

  it("when the user switches back to English, then the English texts return", async () => {
    await page.getByRole("button", { name: "Langue" }).click();
    await page.getByRole("menuitem", { name: "English" }).click();
    await page.getByRole("heading", { name: "Sign in to Alpvault" }).waitFor();
    expect(await readPreferences(page)).toEqual({ theme: "light", locale: "en" });
  });
});
