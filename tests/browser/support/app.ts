import type { Page } from "playwright-core";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";

/** Product-facing helpers shared by the browser tests. */

/** Same key as the web app's local preferences (spec §3). */
export const PREFERENCES_KEY = "alpvault:shared-settings";

export async function demoSignIn(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByRole("button", { name: "Demo sign-in" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByRole("button", { name: "Account menu" }).waitFor();
}

export async function openProfileMenu(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  return menu;
}

export async function readPreferences(page: Page): Promise<unknown> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), PREFERENCES_KEY);
  return raw === null ? null : (JSON.parse(raw) as unknown);
}

export async function mainHeading(page: Page): Promise<string> {
  return (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
}

export { DEMO_GOOGLE_USER };
