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
