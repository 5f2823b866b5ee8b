import type { Browser, BrowserContext, Page } from "playwright-core";
import { openProfileMenu } from "./support/app";
import { collectPageErrors, launchBrowser, newContext, screenshot } from "./support/browser";
import { chooseAccountInEmulatorPopup, registerGoogleAccount } from "./support/auth-emulator-popup";
import {
  completeRegionStep,
  ensureWorkspaceUser,
  pathnameOf,
  skipResourcesWelcome,
} from "./support/onboarding";

jest.setTimeout(90_000);

/** The one test account that sees the debug block (web/src/config/constants.ts). */
const DEBUG_ACCOUNT = { email: "qa-debug@alpine-demo.example", displayName: "QA Debug" };
/** The debug account is the super admin of its own Workspace (installed), so it can finish onboarding. */
const DEBUG_DOMAIN = "alpine-demo.example";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  await ensureWorkspaceUser({
    domain: DEBUG_DOMAIN,
    installed: true,
    email: DEBUG_ACCOUNT.email,
    givenName: "QA",
    familyName: "Debug",
    isAdmin: true,
  });
  await registerGoogleAccount(DEBUG_ACCOUNT);
  browser = await launchBrowser();
  ({ context } = await newContext(browser, { permissions: ["clipboard-read", "clipboard-write"] }));
  page = await context.newPage();
  await skipResourcesWelcome(page);
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
}

describe("Google sign-in in a popup", () => {
  it("when a user signs in with Google in the popup, then the opener completes sign-in and the shell shows them", async () => {
    await page.goto("/login");
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      page.getByRole("button", { name: "Sign in with Google" }).click(),
    ]);
    await chooseAccountInEmulatorPopup(popup, DEBUG_ACCOUNT, (name) => screenshot(popup, name));
    // A super admin of an installed Workspace: the route guard leads to the region step (or, on a second
    // run against the same stack, straight to /resources).
    await page.waitForURL((url) => ["/onboarding/step-3", "/resources"].includes(url.pathname), {
      timeout: 30_000,
    });
    if (pathnameOf(page) === "/onboarding/step-3") await completeRegionStep(page, "Switzerland");
    expect(pathnameOf(page)).toBe("/resources");
    const menu = await openProfileMenu(page);
    expect(await menu.getByTestId("profile-summary").textContent()).toContain(DEBUG_ACCOUNT.email);
    await page.keyboard.press("Escape");
  });

  it("when the debug account is signed in, then the debug block shows the API's health as it sees it, fetched through /v1/health on Hosting", async () => {
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/health");
    await page.goto("/resources");
    const response = await answer;
    expect(response.status()).toBe(200);
    expect(response.request().headers()["authorization"]).toMatch(/^Bearer /);
    const card = page.getByTestId("debug-panel").getByTestId("system-status");
    await card.getByTestId("health-status").waitFor();
    expect(await card.getByTestId("health-status").textContent()).toBe("ok");
    expect(await card.getByTestId("health-user").textContent()).toBe(DEBUG_ACCOUNT.email);
    expect((await card.getByTestId("health-version").textContent())?.trim()).toBe("1.1.1 (development)");
  });

  it("when the debug account is signed in, then the debug block copies the bearer token and confirms with a snackbar", async () => {
    const panel = page.getByTestId("debug-panel");
    await panel.waitFor();
    await panel.getByRole("button", { name: "Copy bearer token" }).click();
    await page.getByText("Bearer token copied").waitFor();
    const bearer = await page.evaluate(() => navigator.clipboard.readText());
    expect(jwtPayload(bearer).email).toBe(DEBUG_ACCOUNT.email);
    await screenshot(page, "shell-debug-block");

    await panel.getByRole("button", { name: "Copy App Check token" }).click();
    await page.getByText("App Check token copied").waitFor();
    const appCheckToken = await page.evaluate(() => navigator.clipboard.readText());
    expect(jwtPayload(appCheckToken).iss).toBe("https://firebaseappcheck.googleapis.com/000000000000");
  });

  it("when the popup flow ran, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
