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

/** True when no snackbar is shown. */
export function noSnackbar(): boolean {
  return screen.queryByTestId("snackbar") === null;
}
