import type { Browser, BrowserContext, Page } from "playwright-core";
import { DEMO_GOOGLE_USER, demoSignIn, openProfileMenu } from "./support/app";
import { collectPageErrors, launchBrowser, newContext, screenshot, type NetworkLog } from "./support/browser";

jest.setTimeout(60_000);

let browser: Browser;
let context: BrowserContext;
let network: NetworkLog;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, network } = await newContext(browser));
  page = await context.newPage();
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("demo sign-in", () => {
  it("when the demo user signs in, then the app shell shows their name and email in the profile menu", async () => {
    await demoSignIn(page);
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

  it("when the demo user is signed in, then the health card shows ok and their email fetched through /v1/health", async () => {
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/health");
    await page.goto("/resources");
    const response = await answer;
    const request = response.request();
    expect(request.headers()["authorization"]).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]*$/);
    expect(request.headers()["x-firebase-appcheck"]).toMatch(/^[\w-]+\.[\w-]+\.$/);
    expect(response.status()).toBe(200);

    const card = page.getByTestId("system-status");
    await card.getByTestId("health-status").waitFor();
    expect(await card.getByTestId("health-status").textContent()).toBe("ok");
    expect(await card.getByTestId("health-user").textContent()).toBe(DEMO_GOOGLE_USER.email);
    expect((await card.getByTestId("health-version").textContent())?.trim()).toMatch(/^\d+\.\d+\.\d+/);
    await screenshot(page, "resources-with-system-status");
  });

  it("when /v1/health answers with an error, then the card shows its message and Check again recovers", async () => {
    const failure = { code: 503, message: "The database is unresponsive. Please try again later." };
    await page.route("**/v1/health", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify(failure) }),
    );
    await page.goto("/resources");
    const card = page.getByTestId("system-status");
    await card.getByTestId("health-error").waitFor();
    expect(await card.getByTestId("health-error").textContent()).toContain(
      `The service could not be reached: ${failure.message}`,
    );
    await screenshot(page, "resources-system-status-error");

    await page.unroute("**/v1/health");
    await page.route("**/v1/health", (route) =>
      route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }),
    );
    await card.getByRole("button", { name: "Check again" }).click();
    await page.getByText("The service could not be reached: Unexpected error occurred").waitFor();

    await page.unroute("**/v1/health");
    await card.getByRole("button", { name: "Check again" }).click();
    await card.getByTestId("health-status").waitFor();
    expect(await card.getByTestId("health-status").textContent()).toBe("ok");
  });

  it("when the demo user is not the debug account, then the debug block is not shown", async () => {
    expect(await page.getByTestId("debug-panel").count()).toBe(0);
  });

  it("when the demo user logs out from the profile menu, then they land on sign-up and protected pages send them to /login", async () => {
    const menu = await openProfileMenu(page);
    await menu.getByRole("menuitem", { name: "Log Out" }).click();
    await page.waitForURL((url) => url.pathname === "/sign-up");
    const stored = await page.evaluate(() => ({
      email: window.localStorage.getItem("alpvault:email"),
      authToken: window.localStorage.getItem("alpvault:authToken"),
    }));
    expect(stored).toEqual({ email: null, authToken: null });
    await page.goto("/resources");
    await page.waitForURL((url) => url.pathname === "/login");
  });

  it("when the demo user signed in, then nothing was requested from the internet and no page error occurred", () => {
    expect(network.blocked).toEqual([]);
    expect(errors).toEqual([]);
  });
});
