/**
 * Accessibility: axe-core (WCAG 2.0 and 2.1, A and AA) on the eight main screens and on the menus and
 * dialogs opened from them, in the light and the dark theme: no violation of serious or critical impact.
 * Every other state the browser tests capture (onboarding steps, forms showing their errors, progress,
 * failures) is checked the same way when it is captured (`screenshot` in ./support/browser).
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { accountMenuButton } from "./support/app";
import { expectNoViolations, seriousViolations } from "./support/axe";
import { launchBrowser, newContext } from "./support/browser";
import { closeDemoPage, signedInDemoPage, type DemoPage } from "./support/demo-page";
import { onboardDemoOrganization } from "./support/onboarding";

jest.setTimeout(180_000);

/** The screen settled: its heading shown, no skeleton left from loading, the boot screen gone. */
async function settled(page: Page): Promise<void> {
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await page.getByTestId("boot-screen").waitFor({ state: "detached" });
  await page.waitForFunction(() => document.querySelectorAll(".MuiSkeleton-root").length === 0, undefined, {
    timeout: 15_000,
  });
}

async function switchTheme(page: Page, to: "dark" | "light"): Promise<void> {
  await page.getByRole("button", { name: `Switch to ${to} theme` }).click();
  await page.getByRole("button", { name: `Switch to ${to === "dark" ? "light" : "dark"} theme` }).waitFor();
  // Away from the toggle, so its tooltip is not part of what is checked.
  await page.mouse.move(0, 0);
  await page.getByRole("tooltip").waitFor({ state: "detached" });
}

/**
 * The findings on what `open` shows (nothing: the screen itself), in the light theme and then the dark
 * one; `close` puts it away again, as a modal covers the theme toggle.
 */
async function checkBothThemes(
  page: Page,
  name: string,
  state: { open?: () => Promise<void>; close?: () => Promise<void> } = {},
): Promise<void> {
  const findings: Record<string, string[]> = {};
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") await switchTheme(page, "dark");
    await state.open?.();
    findings[`${name} (${theme})`] = await seriousViolations(page);
    await state.close?.();
  }
  await switchTheme(page, "light");
  expectNoViolations(findings);
}

/** Closes the open menu or dialog with Escape, as a keyboard user would. */
async function escape(page: Page, what: Locator): Promise<void> {
  await page.keyboard.press("Escape");
  await what.waitFor({ state: "detached" });
}

describe("axe-core on the login page", () => {
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context } = await newContext(browser));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it("when the login page shows, then no serious or critical violation is found, light or dark", async () => {
    const page = await context.newPage();
    await page.goto("/login");
    await settled(page);
    await checkBothThemes(page, "login");
  });
});

describe("axe-core on the signed-in screens", () => {
  let demo: DemoPage | undefined;
  const page = () => (demo as DemoPage).page;

  beforeAll(async () => {
    await onboardDemoOrganization();
    demo = await signedInDemoPage();
  });
  afterAll(() => closeDemoPage(demo));

  const SCREENS = ["/resources", "/policies", "/search", "/audit-logs", "/plans", "/profile", "/secrets"];

  it.each(SCREENS)(
    "when %s shows, then no serious or critical violation is found, light or dark",
    async (path) => {
      await page().goto(path);
      await settled(page());
      await checkBothThemes(page(), path);
    },
  );

  it("when the account menu is open, then no serious or critical violation is found, light or dark", async () => {
    await page().goto("/resources");
    await settled(page());
    const menu = page().getByRole("menu");
    await checkBothThemes(page(), "account menu", {
      open: async () => {
        await accountMenuButton(page()).click();
        await menu.waitFor();
      },
      close: () => escape(page(), menu),
    });
  });

  it("when the payment modal shows an upgrade, then no serious or critical violation is found, light or dark", async () => {
    await page().goto("/plans");
    await settled(page());
    const modal = page().locator('[data-testid="payment-modal"][data-outcome="review"]');
    await checkBothThemes(page(), "payment modal", {
      open: async () => {
        await page().getByTestId("plan-zurich").getByRole("button", { name: "Upgrade" }).click();
        await modal.waitFor();
      },
      close: () => escape(page(), modal),
    });
  });

  it("when the recovery modal is open for a mailbox, then no serious or critical violation is found, light or dark", async () => {
    await page().goto("/resources");
    await settled(page());
    const dialog = page().getByRole("dialog", { name: "Recover data" });
    await checkBothThemes(page(), "recovery modal", {
      open: async () => {
        await page().getByRole("button", { name: "Recover", exact: true }).first().click();
        await dialog.waitFor();
      },
      close: () => escape(page(), dialog),
    });
  });
});
