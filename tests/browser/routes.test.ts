import type { Browser, BrowserContext, Page } from "playwright-core";
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import { onboardDemoOrganization, screenshotBothThemes } from "./support/onboarding";
import { SHELL_ROUTES } from "./support/shell-routes";

jest.setTimeout(120_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  await onboardDemoOrganization();
  ({ browser, context, page, errors } = await signedInDemoPage());
});

afterAll(() => closeDemoPage({ browser, context }));

/** Pages an onboarded user has no business on: the route guard sends them to /resources (docs/requirements.md#screens-and-navigation). */
const ONBOARDED_REDIRECTS = [
  "/login",
  "/sign-up",
  "/onboarding/step-1",
  "/onboarding/step-2",
  "/onboarding/step-3",
  "/onboarding/super-admin-login",
  "/onboarding/super-admin-success",
  "/onboarding/app-install-error",
  "/onboarding/no-google-workspace-account",
];

async function selectedNavEntries(): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  return (await nav.locator("[aria-current=page]").allTextContents()).map((text) => text.trim());
}

describe("route table", () => {
  it.each(SHELL_ROUTES)(
    "when a signed-in user opens $path, then the shell shows the $title screen",
    async ({ path, title, nav, screenshot: name }) => {
      await page.goto(path);
      await page.getByRole("heading", { level: 1, name: title, exact: true }).waitFor();
      // Each screen's content has its own browser test; here: the route, its title and the highlighted entry.
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await selectedNavEntries()).toEqual(nav ? [nav] : []);
      // As wide as the window (1440 px) once its data is in: nothing scrolls sideways (narrow windows:
      // small-screens.test.ts).
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()?.width ?? 0,
      );
      await screenshotBothThemes(page, name);
    },
  );

  it("when the search route carries a resource id, then the screen shows it", async () => {
    await page.goto("/search/res-42");
    expect(await page.getByTestId("search-resource").textContent()).toBe("Resource: res-42");
  });

  it.each(ONBOARDED_REDIRECTS)(
    "when an onboarded user opens %s, then the route guard sends them to /resources",
    async (path) => {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === "/resources");
      await page.getByRole("heading", { level: 1, name: "Resources", exact: true }).waitFor();
    },
  );

  it("when a signed-in user opens an unknown path, then a not-found screen links back to resources", async () => {
    await page.goto("/no-such-page");
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    await screenshotBothThemes(page, "not-found");
    await page.getByRole("link", { name: "Back to resources" }).click();
    await page.waitForURL((url) => url.pathname === "/resources");
  });

  it("when the shell is shown on a large screen, then the side navigation lists exactly the four required entries and the help links", async () => {
    await page.goto("/resources");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await nav.getByRole("link", { name: "Resources" }).waitFor();
    expect((await nav.getByRole("link").allTextContents()).map((text) => text.trim())).toEqual([
      "Resources",
      "Backup Policies",
      "Search Backups",
      "Audit Logs",
    ]);
    expect(await page.getByRole("link", { name: "Contact support" }).getAttribute("href")).toMatch(
      /^mailto:/,
    );
    for (const name of ["Give feedback", "Help Center", "Tutorials"]) {
      const link = page.getByRole("link", { name });
      expect(await link.getAttribute("href")).toMatch(/^https:\/\//);
      expect(await link.getAttribute("target")).toBe("_blank");
    }
    expect(await page.getByRole("button", { name: "Open navigation" }).count()).toBe(0);
    const drawerWidth = await page
      .getByTestId("nav-panel")
      .evaluate((element) => element.getBoundingClientRect().width);
    expect(drawerWidth).toBe(300);
  });

  it("when the resources screen shows, then it leads to Backup Activity and Restore Drills, which the navigation does not list", async () => {
    for (const [name, path] of [
      ["Backup Activity", "/activity"],
      ["Restore Drills", "/restore-drills"],
    ] as const) {
      await page.goto("/resources");
      await page.getByRole("link", { name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByRole("heading", { level: 1, name, exact: true }).waitFor();
      expect(await selectedNavEntries()).toEqual([]);
    }
  });

  it("when the profile menu entries are chosen, then they lead to My profile, Secrets and My Subscription", async () => {
    for (const [entry, path] of [
      ["My profile", "/profile"],
      ["Secrets", "/profile/secrets"],
      ["My Subscription", "/profile/subscription"],
    ] as const) {
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: entry }).click();
      await page.waitForURL((url) => url.pathname === path);
    }
  });

  it("when every screen rendered, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
