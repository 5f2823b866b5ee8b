import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import type { BrowserContext, Page } from "playwright-core";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";
import { appCheckToken, callApi } from "../../support/api-client";
import { signInWithGoogle } from "../../support/auth-emulator";
import { DEMO_DOMAIN, workspaceAdmin } from "../../support/workspace";
import { chooseAccountInEmulatorPopup, registerGoogleAccount } from "./auth-emulator-popup";
import { screenshot } from "./browser";

/**
 * Onboarding state for browser tests. The region of a Workspace domain can be chosen once, so every
 * helper here is idempotent and always chooses the same region for the demo domain: tests that need the
 * app do not depend on which ran first.
 */

/** The region the demo organisation is onboarded in, by every test that needs it. */
export const DEMO_REGION = "ch";

async function expectOk(what: string, answer: { status: number; body: unknown }): Promise<void> {
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/** Installs our app for a Workspace domain through the emulator's admin API. */
export async function installApp(domain: string): Promise<void> {
  await expectOk(
    `Installing the app for ${domain}`,
    await workspaceAdmin("POST", `/customers/${domain}/app:install`, {}),
  );
}

/** Leaves a domain as seeded (app not installed); the API suite expects the demo domain that way. */
export async function uninstallApp(domain: string): Promise<void> {
  await expectOk(
    `Uninstalling the app for ${domain}`,
    await workspaceAdmin("POST", `/customers/${domain}/app:uninstall`),
  );
}

/** Completes step 3 over the API (POST /v1/organizations) as a Google identity; same region again is a 200. */
export async function chooseRegion(
  identity: { sub: string; email: string; name?: string },
  regionId: string,
): Promise<OrganizationSummary> {
  const user = await signInWithGoogle(identity);
  const answer = await callApi("/organizations", {
    method: "POST",
    idToken: user.idToken,
    appCheck: appCheckToken(),
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ regionId }),
  });
  await expectOk(`Choosing region ${regionId} as ${identity.email}`, answer);
  return answer.body as OrganizationSummary;
}

/**
 * Brings the demo organisation to the onboarded state: the app installed and the region chosen by its
 * super admin. Pair with `uninstallApp(DEMO_DOMAIN)` in afterAll.
 */
export async function onboardDemoOrganization(): Promise<OrganizationSummary> {
  await installApp(DEMO_DOMAIN);
  return chooseRegion(
    { sub: DEMO_GOOGLE_USER.sub, email: DEMO_GOOGLE_USER.email, name: DEMO_GOOGLE_USER.displayName },
    DEMO_REGION,
  );
}

/**
 * Creates a Workspace customer and a user in it through the emulator's admin API. Both may exist already
 * (a second run against the same stack): the customer is then installed if asked, the user kept.
 */
export async function ensureWorkspaceUser(options: {
  domain: string;
  installed: boolean;
  email: string;
  givenName: string;
  familyName: string;
  isAdmin: boolean;
}): Promise<void> {
  const customer = await workspaceAdmin("POST", "/customers", {
    domain: options.domain,
    installed: options.installed,
  });
  if (customer.status === 409) {
    if (options.installed) await installApp(options.domain);
  } else {
    await expectOk(`Creating customer ${options.domain}`, customer);
  }
  const user = await workspaceAdmin("POST", "/users", {
    email: options.email,
    givenName: options.givenName,
    familyName: options.familyName,
    isAdmin: options.isAdmin,
  });
  if (user.status !== 200 && customer.status !== 409) await expectOk(`Creating ${options.email}`, user);
}

/** The resources screen greets first visits with a welcome modal; tests about other things skip it. */
export const WELCOME_DISMISSED_KEY = "alpvault:resourcesWelcomeDismissed";

export async function skipResourcesWelcome(page: Page): Promise<void> {
  await page.addInitScript((key) => window.localStorage.setItem(key, "true"), WELCOME_DISMISSED_KEY);
}

/** Clicks a Google sign-in button and picks (or adds) `account` in the Auth emulator's popup. */
export async function signInThroughPopup(
  context: BrowserContext,
  page: Page,
  button: string,
  account: { email: string; displayName: string },
): Promise<void> {
  await registerGoogleAccount(account);
  const [popup] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("button", { name: button }).click(),
  ]);
  await chooseAccountInEmulatorPopup(popup, account);
}

/** Screenshots the current screen in the light theme as `name` and in the dark theme as `name-dark`. */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
  await screenshot(page, name);
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await page.getByRole("button", { name: "Switch to light theme" }).waitFor();
  // Away from the toggle, so its tooltip does not cover the screen.
  await page.mouse.move(0, 0);
  await page.getByRole("tooltip").waitFor({ state: "detached" });
  await screenshot(page, `${name}-dark`);
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
}

export function pathnameOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** The onboarding step counter's text, e.g. "Step 1 / 3". */
export async function stepCounter(page: Page): Promise<string> {
  return (await page.getByTestId("onboarding-step").textContent()) ?? "";
}

export { DEMO_DOMAIN };

/** Step 3 through the UI: choose the region, confirm that it is irreversible, and land on /resources. */
export async function completeRegionStep(page: Page, regionLabel: string): Promise<void> {
  await page.getByRole("radio", { name: new RegExp(`^${regionLabel}\\b`) }).check();
  await page.getByRole("checkbox", { name: IRREVERSIBLE_LABEL }).check();
  await page.getByRole("button", { name: "Confirm region" }).click();
  await page.waitForURL((url) => url.pathname === "/resources", { timeout: 60_000 });
}

export const IRREVERSIBLE_LABEL = "I understand that the backup region cannot be changed once confirmed.";
