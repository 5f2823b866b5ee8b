import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { servedUrl } from "../../support/regions";
import { expectNoViolations, seriousViolations } from "./axe";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Route,
} from "playwright-core";

/** Where the app under test is served (Firebase Hosting of the local stack by default). */
export const WEB_URL = (process.env.ALPVAULT_WEB_URL ?? "http://127.0.0.1:5000").replace(/\/+$/, "");
export const SCREENSHOT_DIR = path.resolve(__dirname, "../../artifacts/screenshots");
export const GAPI_SCRIPT_URL = "https://apis.google.com/js/api.js";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const gapiStandIn = readFileSync(path.join(__dirname, "gapi-stand-in.js"), "utf8");

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Requests that left the machine (blocked); a test can assert on them. */
export interface NetworkLog {
  blocked: string[];
}

/**
 * A fresh context whose outbound network is blocked: loopback requests pass, the Google API loader is
 * answered with the gapi stand-in, everything else is aborted and recorded.
 */
export async function newContext(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; permissions?: string[] } = {},
): Promise<{ context: BrowserContext; network: NetworkLog }> {
  const context = await browser.newContext({
    baseURL: WEB_URL,
    viewport: options.viewport ?? { width: 1440, height: 900 },
    permissions: options.permissions,
  });
  const network: NetworkLog = { blocked: [] };
  await context.route("**/*", (route: Route) => {
    const url = new URL(route.request().url());
    const served = url.pathname.startsWith("/v1/") ? servedUrl(url.href) : url.href;
    // The product run in the test's own process answers the API's calls (its background work included).
    if (served !== url.href) return forward(route, served);
    if (url.protocol === "data:" || url.protocol === "blob:" || isLoopback(url.hostname))
      return route.continue();
    if (`${url.origin}${url.pathname}` === GAPI_SCRIPT_URL) {
      return route.fulfill({ status: 200, contentType: "text/javascript; charset=utf-8", body: gapiStandIn });
    }
    network.blocked.push(url.href);
    return route.abort("internetdisconnected");
  });
  return { context, network };
}

/** Answers a request with what `target` answers (redirects left to the page, as the browser would see them). */
async function forward(route: Route, target: string): Promise<void> {
  try {
    const response = await route.fetch({ url: target, maxRedirects: 0 });
    await route.fulfill({ response });
  } catch {
    // The page or the test ended while the answer was on its way: nothing waits for it any more.
    await route.abort("connectionreset").catch(() => undefined);
  }
}

/**
 * Captures the page as `name`.png and, when it is one of the console's screens, checks it with axe-core:
 * every state the tests capture (screens, menus, dialogs, errors, light and dark) is also held to WCAG 2.1
 * AA, and a serious or critical violation fails the test, naming what to mend.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  if (new URL(page.url()).origin === new URL(WEB_URL).origin) {
    expectNoViolations({ [name]: await seriousViolations(page) });
  }
}

/** Collects uncaught page errors so a test can assert that a screen rendered without crashing. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/**
 * The width the page settles at in a window `width` px wide: a screen re-lays itself out after a resize
 * (MUI's media queries re-render on the next turn), so the page is read once it fits, or after 10 s as it
 * is. Answers the document's scroll width.
 */
export async function settledWidth(page: Page, width: number): Promise<number> {
  await page.setViewportSize({ width, height: 900 });
  await page
    .waitForFunction((most) => document.documentElement.scrollWidth <= most, width, { timeout: 10_000 })
    .catch(() => undefined);
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Waits until the locator matches `count` elements (15 s at most), then checks it. */
export async function countIs(locator: Locator, count: number): Promise<void> {
  if (count > 0) await locator.nth(count - 1).waitFor({ state: "attached", timeout: 15_000 });
  await locator.nth(count).waitFor({ state: "detached", timeout: 15_000 });
  expect(await locator.count()).toBe(count);
}
