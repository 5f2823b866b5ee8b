/**
 * The console on screens below the lg breakpoint (docs/requirements.md#screens-and-navigation): every
 * screen as wide as a 390 px window, the 56 px navigation rail and the temporary drawer, opened from the
 * menu button or by a swipe from the screen's left edge. Wide screens: routes.test.ts.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import { screenshot } from "./support/browser";
import { onboardDemoOrganization } from "./support/onboarding";
import { SHELL_ROUTES } from "./support/shell-routes";

jest.setTimeout(120_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  await onboardDemoOrganization();
  ({ browser, context, page, errors } = await signedInDemoPage({ width: 1024, height: 800 }));
});

afterAll(() => closeDemoPage({ browser, context }));

describe("small screens", () => {
  it("when a signed-in user opens every screen 390 px wide, then the page is as wide as the window: nothing scrolls sideways", async () => {
    const width = 390;
    const before = page.viewportSize();
    await page.setViewportSize({ width, height: 900 });
    try {
      const wider: string[] = [];
      for (const { path, title } of SHELL_ROUTES) {
        await page.goto(path);
        await page.getByRole("heading", { level: 1, name: title, exact: true }).waitFor();
        await page.waitForLoadState("networkidle");
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) wider.push(`${path}: ${scrollWidth} px`);
      }
      expect(wider).toEqual([]);
    } finally {
      if (before) await page.setViewportSize(before);
    }
  });

  it("when the screen is below the lg breakpoint, then a 56 px rail shows the entries and the temporary drawer opens from the menu button", async () => {
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto("/policies");
    await page.getByRole("heading", { level: 1, name: "Backup Policies" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    expect(await nav.isVisible()).toBe(false);
    const rail = page.getByTestId("nav-rail");
    expect(await rail.evaluate((element) => element.getBoundingClientRect().width)).toBe(56);
    const railNav = page.getByRole("navigation", { name: "Navigation rail" });
    expect(
      await railNav
        .getByRole("link")
        .evaluateAll((links) => links.map((link) => link.getAttribute("aria-label"))),
    ).toEqual(["Resources", "Backup Policies", "Search Backups", "Audit Logs"]);
    expect(await railNav.getByRole("link", { name: "Backup Policies" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await screenshot(page, "shell-rail");
    await railNav.getByRole("link", { name: "Search Backups" }).click();
    await page.waitForURL((url) => url.pathname === "/search");
    await page.getByRole("button", { name: "Open navigation" }).click();
    await nav.waitFor({ state: "visible" });
    expect(
      await page.locator(".MuiDrawer-paper").evaluate((element) => element.getBoundingClientRect().width),
    ).toBe(300);
    await page.waitForFunction(
      () => document.querySelector(".MuiDrawer-paper")?.getBoundingClientRect().left === 0,
    );
    await screenshot(page, "shell-drawer-temporary");
    await nav.getByRole("link", { name: "Audit Logs" }).click();
    await page.waitForURL((url) => url.pathname === "/audit-logs");
    await nav.waitFor({ state: "hidden" });
  });

  it("when a touch swipes from the left screen edge below the lg breakpoint, then the drawer opens; a swipe starting further in does not", async () => {
    const touch = await context.newCDPSession(page);
    const swipe = async (fromX: number) => {
      const point = (x: number) => [{ x, y: 400, id: 1 }];
      await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: point(fromX) });
      for (let x = fromX + 20; x <= fromX + 260; x += 20) {
        await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: point(x) });
      }
      await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await swipe(40);
    // Two frames after the gesture: a drawer that opened would be showing by now.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await nav.isVisible()).toBe(false);
    await swipe(5);
    await nav.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await nav.waitFor({ state: "hidden" });
    await touch.detach();
  });

  it("when every screen rendered, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
