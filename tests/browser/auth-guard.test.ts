import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, launchBrowser, newContext } from "./support/browser";
import { screenshotBothThemes } from "./support/onboarding";

jest.setTimeout(60_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("route guard", () => {
  it.each([
    "/",
    "/resources",
    "/policies",
    "/search/some-resource",
    "/profile/secrets",
    "/onboarding/step-1",
    "/onboarding/step-3",
    "/onboarding/super-admin-success",
  ])("when an unauthenticated user opens %s, then they are redirected to /login", async (route) => {
    await page.goto(route);
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("heading", { name: "Sign in to Alpvault" }).waitFor();
  });

  it("when an unauthenticated user opens a page with the app query parameter, then /login keeps it", async () => {
    await page.goto("/resources?app=marketplace");
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("app")).toBe("marketplace");
  });

  it("when an unauthenticated user opens /login, then the authentication step shows without a step counter or Logout", async () => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with Google" }).waitFor();
    await page.getByRole("button", { name: "Demo sign-in" }).waitFor();
    expect(await page.getByTestId("onboarding-step").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Logout" }).count()).toBe(0);
    await screenshotBothThemes(page, "login");
  });

  it("when an unauthenticated user opens /sign-up, then they stay there and see the sign-up step", async () => {
    await page.goto("/sign-up");
    await page.getByRole("heading", { name: "Create your Alpvault account" }).waitFor();
    await page.getByRole("button", { name: "Sign up with Google" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/sign-up");
    expect(await page.getByTestId("onboarding-step").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Logout" }).count()).toBe(0);
    await screenshotBothThemes(page, "sign-up");
  });

  it("when the screens rendered, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
