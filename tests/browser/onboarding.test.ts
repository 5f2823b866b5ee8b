import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { newWorkspace, type TestWorkspace } from "../support/organizations";
import { accountMenuButton, openProfileMenu } from "./support/app";
import { collectPageErrors, launchBrowser, newContext, screenshot } from "./support/browser";
import {
  IRREVERSIBLE_LABEL,
  pathnameOf,
  screenshotBothThemes,
  signInThroughPopup,
  skipResourcesWelcome,
  stepCounter,
} from "./support/onboarding";

/**
 * The onboarding of docs/requirements.md#screens-and-navigation, #states-and-flows and #who-may-do-what, walked by a new admin of a fresh Workspace (created through the
 * Workspace emulator's admin API, so the one-time region choice never collides with other tests).
 */
jest.setTimeout(180_000);

const APP_PARAMETER = "alpvault-marketplace";
const NOT_INSTALLED = "Install the application using a Google Workspace super admin account.";
const NOT_ADMIN = "The account is not admin. Please change account and login as a super admin.";
const SETUP_FAILED = "We couldn't complete your subscription setup. Please try again.";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let workspace: TestWorkspace;
let admin: { email: string; displayName: string };
let nonAdmin: { email: string; displayName: string };
/** POST /v1/organizations requests the page sent. */
const subscriptionRequests: string[] = [];

beforeAll(async () => {
  workspace = await newWorkspace({ installed: false });
  admin = { email: workspace.admin, displayName: "Ada Admin" };
  nonAdmin = { email: workspace.user, displayName: "Ueli User" };
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
  await skipResourcesWelcome(page);
  errors = collectPageErrors(page);
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/organizations") {
      subscriptionRequests.push(request.url());
    }
  });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("onboarding of a new Workspace admin", () => {
  it("when a new admin signs up before the app is installed, then step 1 shows the install text, carrying the app parameter", async () => {
    await page.goto(`/sign-up?app=${APP_PARAMETER}`);
    await signInThroughPopup(context, page, "Sign up with Google", admin);
    await page.waitForURL((url) => url.pathname === "/onboarding/step-1");
    expect(new URL(page.url()).searchParams.get("app")).toBe(APP_PARAMETER);
    await page.getByRole("heading", { level: 1, name: "Install the Alpvault app" }).waitFor();
    expect(await page.getByTestId("app-install-instructions").textContent()).toBe(NOT_INSTALLED);
    expect(await stepCounter(page)).toBe("Step 1 / 3");
    expect(await page.getByRole("button", { name: "Logout" }).count()).toBe(1);
    await screenshotBothThemes(page, "onboarding-step-1");
  });

  it("when Verify installation finds the app not installed, then the app-install error page says so", async () => {
    await page.getByRole("button", { name: "Verify installation" }).click();
    await page.waitForURL((url) => url.pathname === "/onboarding/app-install-error");
    expect(new URL(page.url()).searchParams.get("app")).toBe(APP_PARAMETER);
    expect(await page.getByTestId("app-install-error").textContent()).toContain(NOT_INSTALLED);
    expect(await stepCounter(page)).toBe("Step 1 / 3");
    await screenshotBothThemes(page, "onboarding-app-install-error");
  });

  it("when a step further on is opened before the app is installed, then the route guard keeps the admin on step 1", async () => {
    await page.goto(`/onboarding/step-3?app=${APP_PARAMETER}`);
    await page.waitForURL((url) => url.pathname === "/onboarding/step-1");
    await page.goto("/resources");
    await page.waitForURL((url) => url.pathname === "/onboarding/step-1");
  });

  it("when the admin opens the Marketplace from step 1, then the Workspace emulator's consent screen names the domain and the scopes, and Install installs the app", async () => {
    const [marketplace] = await Promise.all([
      context.waitForEvent("page"),
      page.getByTestId("marketplace-link").click(),
    ]);
    await marketplace.getByRole("link", { name: "Admin install" }).click();
    await marketplace.getByTestId("marketplace-account").filter({ hasText: admin.email }).click();
    expect(await marketplace.getByTestId("marketplace-domain").textContent()).toBe(workspace.domain);
    const scopes = await marketplace.getByTestId("marketplace-scopes").locator("li").allTextContents();
    expect(scopes).toContain("See, edit, create, and delete all of your Google Drive files");
    expect(scopes).toContain("View your email messages and settings");
    await screenshot(marketplace, "onboarding-marketplace-consent");
    await marketplace.getByRole("button", { name: "Install" }).click();
    expect(await marketplace.getByTestId("marketplace-installed").textContent()).toBe(
      `Alpvault is installed for ${workspace.domain}`,
    );
    await marketplace.close();
  });

  it("when the app is installed and Verify installation is used, then the admin moves on to step 3", async () => {
    await page.bringToFront();
    // The page refreshes once the installation is verified: what was set on this page is gone.
    await page.evaluate(() => ((window as unknown as { beforeVerify?: boolean }).beforeVerify = true));
    await page.getByRole("button", { name: "Verify installation" }).click();
    await page.waitForURL((url) => url.pathname === "/onboarding/step-3");
    expect(
      await page.evaluate(() => (window as unknown as { beforeVerify?: boolean }).beforeVerify ?? false),
    ).toBe(false);
    await page.getByRole("heading", { level: 1, name: "Choose your backup region" }).waitFor();
    expect(await stepCounter(page)).toBe("Step 3 / 3");
    expect(await page.getByRole("button", { name: "Logout" }).count()).toBe(1);
    const regions = (await page
      .getByRole("radio")
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))) as string[];
    expect(regions).toEqual(["ch", "eu", "us"]);
    await screenshotBothThemes(page, "onboarding-step-3");
  });

  it("when a non-admin account of the domain signs in, then step 2 refuses it with the exact text and offers no Logout", async () => {
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/sign-up");
    await page.getByRole("link", { name: "Log in" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await signInThroughPopup(context, page, "Sign in with Google", nonAdmin);
    await page.waitForURL((url) => url.pathname === "/onboarding/step-2");
    expect(await page.getByTestId("not-admin").textContent()).toBe(NOT_ADMIN);
    expect(await stepCounter(page)).toBe("Step 2 / 3");
    expect(await page.getByRole("button", { name: "Logout" }).count()).toBe(0);
    await screenshotBothThemes(page, "onboarding-step-2");
    await page.goto("/onboarding/step-3");
    await page.waitForURL((url) => url.pathname === "/onboarding/step-2");
  });

  it("when the non-admin changes account to the super admin, then the super-admin login and success pages lead to step 3", async () => {
    await page.getByRole("button", { name: "Sign in with another account" }).click();
    await page.waitForURL((url) => url.pathname === "/onboarding/super-admin-login");
    expect(await stepCounter(page)).toBe("Step 2 / 3");
    await screenshotBothThemes(page, "onboarding-super-admin-login");
    await signInThroughPopup(context, page, "Sign in with Google as a super admin", admin);
    await page.waitForURL((url) => url.pathname === "/onboarding/super-admin-success");
    expect(await page.getByTestId("super-admin-success").textContent()).toContain(admin.email);
    expect(await stepCounter(page)).toBe("Step 3 / 3");
    await screenshotBothThemes(page, "onboarding-super-admin-success");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/onboarding/step-3");
  });

  it("when Confirm region is used without the irreversible confirmation, then it asks for it and sends nothing", async () => {
    await page.getByRole("button", { name: "Confirm region" }).click();
    await page.getByText("Please choose a backup region.").waitFor();
    await page.getByRole("radio", { name: /^Switzerland\b/ }).check();
    await page.getByRole("button", { name: "Confirm region" }).click();
    await page.getByTestId("confirmation-error").waitFor();
    expect(await page.getByTestId("confirmation-error").textContent()).toBe(
      "Please confirm that the backup region cannot be changed once confirmed.",
    );
    expect(subscriptionRequests).toEqual([]);
    expect(pathnameOf(page)).toBe("/onboarding/step-3");
    await screenshotBothThemes(page, "onboarding-step-3-confirmation-required");
  });

  it("when the subscription setup fails, then the exact failure text shows with Retry, and Retry completes it to /resources", async () => {
    const failure = { code: 503, message: "Google Workspace could not be reached. Please try again later." };
    await page.route("**/v1/organizations", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify(failure) }),
    );
    await page.getByRole("checkbox", { name: IRREVERSIBLE_LABEL }).check();
    await page.getByRole("button", { name: "Confirm region" }).click();
    const alert = page.getByTestId("subscription-setup-error");
    await alert.waitFor();
    expect(await alert.textContent()).toContain(SETUP_FAILED);
    expect(await alert.textContent()).toContain(failure.message);
    expect(pathnameOf(page)).toBe("/onboarding/step-3");
    await screenshotBothThemes(page, "onboarding-step-3-setup-failed");

    await page.unroute("**/v1/organizations");
    await alert.getByRole("button", { name: "Retry" }).click();
    await page.waitForURL((url) => url.pathname === "/resources", { timeout: 60_000 });
    await accountMenuButton(page).waitFor();
    expect(subscriptionRequests.length).toBe(2);
    const organizationId = await page.evaluate(() => window.localStorage.getItem("alpvault:organizationId"));
    expect(organizationId).toMatch(/^[\w-]{10}$/);
    await screenshot(page, "onboarding-complete-resources");
  });

  it("when the onboarded admin opens login or an onboarding step, then they go to /resources", async () => {
    for (const path of ["/login", "/onboarding/step-1", "/onboarding/step-3"]) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === "/resources");
    }
  });

  it("when the onboarded admin logs out, then they land on /sign-up, and logging back in leads straight to /resources", async () => {
    const menu = await openProfileMenu(page);
    await menu.getByRole("menuitem", { name: "Log Out" }).click();
    await page.waitForURL((url) => url.pathname === "/sign-up");
    expect(await page.evaluate(() => window.localStorage.getItem("alpvault:organizationId"))).toBeNull();

    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goto("/login");
    await signInThroughPopup(context, page, "Sign in with Google", admin);
    await page.waitForURL((url) => url.pathname === "/resources");
    await accountMenuButton(page).waitFor();
    expect(visited.filter((path) => path.startsWith("/onboarding/"))).toEqual([]);
  });

  it("when the walk-through ran, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});

describe("consumer Google accounts", () => {
  let consumerContext: BrowserContext;
  let consumerPage: Page;

  beforeAll(async () => {
    ({ context: consumerContext } = await newContext(browser));
    consumerPage = await consumerContext.newPage();
  });

  afterAll(async () => {
    await consumerContext?.close();
  });

  it("when a consumer Google account signs in, then the no-Google-Workspace-account page shows and Logout leads to sign-up", async () => {
    const consumer = {
      email: `someone.${randomBytes(3).toString("hex")}@gmail.com`,
      displayName: "Some One",
    };
    await consumerPage.goto("/login");
    await signInThroughPopup(consumerContext, consumerPage, "Sign in with Google", consumer);
    await consumerPage.waitForURL((url) => url.pathname === "/onboarding/no-google-workspace-account");
    await consumerPage.getByRole("heading", { level: 1, name: "No Google Workspace account" }).waitFor();
    expect(await consumerPage.getByTestId("no-workspace-account").textContent()).toBe(
      "This Google account does not belong to a Google Workspace organisation.",
    );
    expect(await consumerPage.getByRole("button", { name: "Logout" }).count()).toBe(1);
    await screenshotBothThemes(consumerPage, "onboarding-no-google-workspace-account");
    await consumerPage.goto("/onboarding/step-1");
    await consumerPage.waitForURL((url) => url.pathname === "/onboarding/no-google-workspace-account");
    await consumerPage.getByRole("button", { name: "Logout" }).click();
    await consumerPage.waitForURL((url) => url.pathname === "/sign-up");
  });
});
