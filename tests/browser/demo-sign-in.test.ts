import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { accountMenuButton, DEMO_GOOGLE_USER, demoSignIn, openProfileMenu } from "./support/app";
import { collectPageErrors, launchBrowser, newContext, screenshot, type NetworkLog } from "./support/browser";
import {
  DEMO_DOMAIN,
  onboardDemoOrganization,
  pathnameOf,
  screenshotBothThemes,
  skipResourcesWelcome,
  uninstallApp,
} from "./support/onboarding";

jest.setTimeout(90_000);

let browser: Browser;
let context: BrowserContext;
let network: NetworkLog;
let page: Page;
let errors: string[];

beforeAll(async () => {
  await onboardDemoOrganization();
  browser = await launchBrowser();
  ({ context, network } = await newContext(browser));
  page = await context.newPage();
  await skipResourcesWelcome(page);
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await uninstallApp(DEMO_DOMAIN);
});

function answerWith(status: number, contentType: string, body: string) {
  return (route: Route) => route.fulfill({ status, contentType, body });
}

describe("demo sign-in", () => {
  it("when the onboarded demo user signs in, then they land on /resources and the profile menu shows their name and email", async () => {
    await demoSignIn(page);
    expect(pathnameOf(page)).toBe("/resources");
    await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
    const menu = await openProfileMenu(page);
    const summary = menu.getByTestId("profile-summary");
    expect(await summary.textContent()).toContain(DEMO_GOOGLE_USER.displayName);
    expect(await summary.textContent()).toContain(DEMO_GOOGLE_USER.email);
    for (const entry of ["My profile", "Secrets", "My Subscription", "Log Out"]) {
      await menu.getByRole("menuitem", { name: entry }).waitFor();
    }
    await screenshot(page, "shell-profile-menu");
    await page.keyboard.press("Escape");
  });

  it("when the demo user is signed in, then connecting calls /v1/installation with a bearer ID token and an App Check token and stores the organisation id", async () => {
    const answer = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/v1/installation",
    );
    await page.reload();
    const response = await answer;
    const request = response.request();
    expect(request.headers()["authorization"]).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]*$/);
    expect(request.headers()["x-firebase-appcheck"]).toMatch(/^[\w-]+\.[\w-]+\.$/);
    expect(response.status()).toBe(200);
    const installation = (await response.json()) as { organizations: { organizationId: string }[] };
    await accountMenuButton(page).waitFor();
    const stored = await page.evaluate(() => window.localStorage.getItem("alpvault:organizationId"));
    expect(stored).toBe(installation.organizations[0]?.organizationId);
  });

  it("when the demo user (a customer) opens resources, then no developer card (the API's health) is shown", async () => {
    await page.goto("/resources");
    await page.getByTestId("resources-table").waitFor();
    expect(await page.getByTestId("system-status").count()).toBe(0);
  });

  it("when /v1/installation answers with an error, then connecting stops with its message, and Retry recovers", async () => {
    const failure = { code: 503, message: "Google Workspace could not be reached. Please try again later." };
    await page.route("**/v1/installation", answerWith(503, "application/json", JSON.stringify(failure)));
    await page.goto("/resources");
    const shown = page.getByTestId("connecting-error");
    await shown.waitFor();
    expect(await shown.textContent()).toBe(failure.message);
    expect(pathnameOf(page)).toBe("/resources");
    await page.getByRole("button", { name: "Logout" }).waitFor();
    await screenshotBothThemes(page, "onboarding-connecting-failed");

    await page.unroute("**/v1/installation");
    await page.route("**/v1/installation", answerWith(502, "text/html", "<h1>Bad gateway</h1>"));
    await page.getByRole("button", { name: "Retry" }).click();
    await page.getByText("Unexpected error occurred").waitFor();

    await page.unroute("**/v1/installation");
    await page.getByRole("button", { name: "Retry" }).click();
    await accountMenuButton(page).waitFor();
    expect(pathnameOf(page)).toBe("/resources");
  });

  it("when /v1/regions fails, then connecting is aborted with its message", async () => {
    const failure = { code: 500, message: "Unexpected error occurred" };
    await page.route("**/v1/regions", answerWith(500, "application/json", JSON.stringify(failure)));
    await page.reload();
    await page.getByTestId("connecting-error").waitFor();
    expect(await page.getByTestId("connecting-error").textContent()).toBe(failure.message);
    expect(await accountMenuButton(page).count()).toBe(0);
    await page.unroute("**/v1/regions");
    await page.getByRole("button", { name: "Retry" }).click();
    await accountMenuButton(page).waitFor();
  });

  it("when the organisation details fail, then connecting still completes into the app", async () => {
    let detailCalls = 0;
    await page.route("**/v1/organizations/*", (route) => {
      detailCalls += 1;
      return route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: 500, message: "Unexpected error occurred" }),
      });
    });
    await page.reload();
    await accountMenuButton(page).waitFor();
    expect(detailCalls).toBeGreaterThan(0);
    expect(pathnameOf(page)).toBe("/resources");
    expect(await page.getByTestId("connecting-error").count()).toBe(0);
    await page.unroute("**/v1/organizations/*");
  });

  it("when connecting, then the plan comes from the subscription (fields as repeated keys) and the profile menu shows it; if that call fails, the default plan stays", async () => {
    const request = page.waitForRequest((candidate) =>
      /\/v1\/organizations\/[^/]+\/subscriptions\/[^/]+$/.test(new URL(candidate.url()).pathname),
    );
    await page.reload();
    expect(new URL((await request).url()).searchParams.getAll("fields")).toEqual(["plan", "seats"]);
    let menu = await openProfileMenu(page);
    await menu.getByTestId("profile-plan").getByText("Matterhorn plan · up to 2 users").waitFor();
    await page.keyboard.press("Escape");

    await page.route("**/v1/organizations/*/subscriptions/*", answerWith(500, "application/json", "{}"));
    await page.reload();
    menu = await openProfileMenu(page);
    await menu.getByTestId("profile-plan").getByText("GW Daily plan · up to 5 users").waitFor();
    expect(pathnameOf(page)).toBe("/resources");
    await page.keyboard.press("Escape");
    await page.unroute("**/v1/organizations/*/subscriptions/*");
  });

  it("when the demo user is not the debug account, then the debug block is not shown", async () => {
    expect(await page.getByTestId("debug-panel").count()).toBe(0);
  });

  it("when the stored auth token is gone, then the next start is signed out; signing in stores a new one", async () => {
    const storedToken = () => page.evaluate(() => window.localStorage.getItem("alpvault:storedAuthToken"));
    const first = await storedToken();
    expect(first).toMatch(/^[^.]+\.[0-9a-f]{32}$/);
    await page.evaluate(() => window.localStorage.removeItem("alpvault:storedAuthToken"));
    await page.reload();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("button", { name: "Demo sign-in" }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem("alpvault:email"))).toBeNull();
    await page.goto("/resources");
    await page.waitForURL((url) => url.pathname === "/login");

    await demoSignIn(page);
    const second = await storedToken();
    expect(second).toMatch(/^[^.]+\.[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
    // The same user's id, and the session survives a reload.
    expect(second?.split(".")[0]).toBe(first?.split(".")[0]);
    await page.reload();
    await accountMenuButton(page).waitFor();
    expect(new URL(page.url()).pathname).toBe("/resources");
  });

  it("when the demo user logs out from the profile menu, then they land on sign-up with the stored entries cleared and protected pages send them to /login", async () => {
    const menu = await openProfileMenu(page);
    await menu.getByRole("menuitem", { name: "Log Out" }).click();
    await page.waitForURL((url) => url.pathname === "/sign-up");
    const stored = await page.evaluate(() => ({
      email: window.localStorage.getItem("alpvault:email"),
      displayName: window.localStorage.getItem("alpvault:displayName"),
      authToken: window.localStorage.getItem("alpvault:authToken"),
      storedAuthToken: window.localStorage.getItem("alpvault:storedAuthToken"),
      organizationId: window.localStorage.getItem("alpvault:organizationId"),
    }));
    expect(stored).toEqual({
      email: null,
      displayName: null,
      authToken: null,
      storedAuthToken: null,
      organizationId: null,
    });
    await page.goto("/resources");
    await page.waitForURL((url) => url.pathname === "/login");
  });

  it("when the demo user signed in, then nothing was requested from the internet and no page error occurred", () => {
    expect(network.blocked).toEqual([]);
    expect(errors).toEqual([]);
  });
});
