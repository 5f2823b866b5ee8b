import type { Page } from "playwright-core";
import { signInWithGoogle } from "../../support/auth-emulator";
import { googleSubOf } from "../../support/organizations";

/**
 * Registers the Google account of `account` in the Auth emulator with the `sub` Google gives it (a
 * Workspace user's Directory id, which the API checks), so the popup lists it. Call before opening the
 * popup: its "Add new account" would draw a random `sub`, which no real Google account of that user has.
 */
export async function registerGoogleAccount(account: { email: string; displayName: string }): Promise<void> {
  await signInWithGoogle({
    sub: await googleSubOf(account.email),
    email: account.email,
    name: account.displayName,
  });
}

/**
 * Drives the Auth emulator's sign-in page that the popup opens: picks the account if the emulator
 * already knows it, otherwise adds it through "Add new account".
 */
export async function chooseAccountInEmulatorPopup(
  popup: Page,
  account: { email: string; displayName: string },
  capture?: (name: string) => Promise<void>,
): Promise<void> {
  await popup.waitForLoadState("domcontentloaded");
  await popup.locator("#accounts-list").waitFor();
  await capture?.("google-popup-accounts");
  const existing = popup.locator(".js-reuse-account", { hasText: account.email });
  if ((await existing.count()) > 0) {
    await existing.first().click();
    return;
  }
  await popup.locator(".js-new-account").click();
  await popup.locator("#email-input").fill(account.email);
  await popup.locator("#display-name-input").fill(account.displayName);
  await capture?.("google-popup-new-account");
  await popup.locator("#sign-in").click();
}
