/** The app's one snackbar (`lib/snackbar.tsx`) as a component test reads it. */
import { screen, waitFor } from "@testing-library/react";

/**
 * Waits for the snackbar to say exactly `text` and checks whether it reports an error; answers the
 * snackbar's element.
 */
export async function expectSnackbar(text: string, kind: "error" | "success"): Promise<HTMLElement> {
  const snackbar = await waitFor(() => {
    const shown = screen.getByTestId("snackbar");
    expect(shown.textContent).toBe(text);
    return shown;
  });
  expect(snackbar).toHaveAttribute("data-error", kind === "error" ? "true" : "false");
  return snackbar;
}

/**
 * Waits for the snackbar to say exactly `text` where assistive technology reads it: an alert in the
 * accessibility tree (not under an `aria-hidden` part of the page, as a menu or dialog leaves the rest of
 * the page while it is open or closing).
 */
export async function expectSnackbarAnnounced(text: string, kind: "error" | "success"): Promise<HTMLElement> {
  const snackbar = await expectSnackbar(text, kind);
  expect(screen.getAllByRole("alert")).toContain(snackbar);
  return snackbar;
}

/** True when no snackbar is shown. */
export function noSnackbar(): boolean {
  return screen.queryByTestId("snackbar") === null;
}
