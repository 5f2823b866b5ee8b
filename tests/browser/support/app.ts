import type { Page } from "playwright-core";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";

/** Product-facing helpers shared by the browser tests. */

/** Same key as the web app's local preferences (docs/requirements.md#data-the-console-shows). */
export const PREFERENCES_KEY = "alpvault:shared-settings";

/** The header's account button; found by attribute, as a modal above the shell hides it from the role tree. */
export function accountMenuButton(page: Page) {
  return page.locator('button[aria-label^="Account menu"]');
}

/**
 * Signs the demo super admin in from /login. With the demo organisation onboarded
 * (`onboardDemoOrganization()` in ./onboarding) the route guard leads straight to /resources.
 */
export async function demoSignIn(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByRole("button", { name: "Demo sign-in" }).click();
  await page.waitForURL((url) => url.pathname === "/resources");
  await accountMenuButton(page).waitFor();
}

/** Opens the account menu; the answer is its popover: who is signed in (`profile-summary`) and the menu. */
export async function openProfileMenu(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menu").waitFor();
  return page.getByTestId("profile-menu");
}

export async function readPreferences(page: Page): Promise<unknown> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), PREFERENCES_KEY);
  return raw === null ? null : (JSON.parse(raw) as unknown);
}

export async function mainHeading(page: Page): Promise<string> {
  return (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
}

export { DEMO_GOOGLE_USER };
