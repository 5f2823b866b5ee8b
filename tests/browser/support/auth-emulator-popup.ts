import type { Page } from "playwright-core";

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
