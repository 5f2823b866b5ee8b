/** The app's one snackbar (`web/src/lib/snackbar.tsx`), as the browser tests read and close it. */
import type { Page } from "playwright-core";

export const snackbarOf = (page: Page) => page.getByTestId("snackbar");

/** Closes the snackbar when it shows. */
export async function closeSnackbar(page: Page): Promise<void> {
  const snackbar = snackbarOf(page);
  if (await snackbar.isVisible()) {
    await snackbar.getByRole("button", { name: "Close" }).click();
    await snackbar.waitFor({ state: "hidden" });
  }
}

/** Waits for the snackbar, checks its text and whether it reports an error, then closes it. */
export async function expectSnackbar(page: Page, text: string, isError: boolean): Promise<void> {
  const snackbar = snackbarOf(page);
  await snackbar.waitFor();
  expect(await snackbar.locator(".MuiAlert-message").innerText()).toBe(text);
  expect(await snackbar.getAttribute("data-error")).toBe(String(isError));
  await closeSnackbar(page);
}

/**
 * As `expectSnackbar`, and the snackbar is read by assistive technology from the moment it shows: it is
 * outside the app's root, which a menu or dialog that is open (or still closing, as a row's menu is when
 * "Backup now" is answered) hides with `aria-hidden`, and it is an alert in the accessibility tree
 * (Playwright's role queries leave out what `aria-hidden` hides).
 */
export async function expectSnackbarAnnounced(page: Page, text: string, isError: boolean): Promise<void> {
  const snackbar = snackbarOf(page);
  await snackbar.waitFor();
  const where = await snackbar.evaluate((element) => ({
    inAppRoot: document.getElementById("root")?.contains(element) ?? false,
    hiddenBy: element.closest('[aria-hidden="true"]')?.outerHTML.slice(0, 80) ?? null,
  }));
  expect(where).toEqual({ inAppRoot: false, hiddenBy: null });
  await page.getByRole("alert").filter({ hasText: text }).waitFor({ timeout: 1_000 });
  await expectSnackbar(page, text, isError);
}
