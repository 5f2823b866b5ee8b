import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expectNoViolations, seriousViolations } from "./axe";
import { startBrowserNetwork, type BrowserNetwork } from "./network";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";

/** Where the app under test is served (Firebase Hosting of the local stack by default). */
export const WEB_URL = (process.env.ALPVAULT_WEB_URL ?? "http://127.0.0.1:5000").replace(/\/+$/, "");
export const SCREENSHOT_DIR = path.resolve(__dirname, "../../artifacts/screenshots");

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

/** This file's browser network (one proxy for every browser the file launches), closed after its tests. */
let network: Promise<BrowserNetwork> | undefined;

function browserNetwork(): Promise<BrowserNetwork> {
  network ??= startBrowserNetwork(gapiStandIn);
  return network;
}

/** Closes this file's browser network, if it started one (the browser set-up files call it after the tests). */
export async function closeBrowserNetwork(): Promise<void> {
  const started = network;
  network = undefined;
  await (await started)?.close();
}

/** Chromium, its every request through this file's browser network (network.ts). */
export async function launchBrowser(): Promise<Browser> {
  const { proxyServer } = await browserNetwork();
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      ...CHROMIUM_ARGS,
      `--proxy-server=${proxyServer}`,
      // Loopback too: the stack and the API served here are on 127.0.0.1.
      "--proxy-bypass-list=<-loopback>",
      // The gapi stand-in's certificate is a test certificate for apis.google.com.
      "--ignore-certificate-errors",
    ],
  });
}

/** The context's pages' requests that would have left the machine (the proxy refuses them); a test can assert on them. */
export interface NetworkLog {
  blocked: string[];
}

const GAPI_SCRIPT_URL = "https://apis.google.com/js/api.js";
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** Whether the page asked for something beyond the machine (Chromium's own service traffic is not the page's). */
function leavesTheMachine(address: string): boolean {
  const url = new URL(address);
  if (url.protocol === "data:" || url.protocol === "blob:" || LOOPBACK.test(url.hostname)) return false;
  return `${url.origin}${url.pathname}` !== GAPI_SCRIPT_URL;
}

/**
 * A fresh context of a browser of `launchBrowser`: outbound network refused and recorded, the Google API
 * loader answered with the gapi stand-in, the API answered by the product run in the test's process when
 * the file runs it there.
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
  context.on("request", (request) => {
    if (leavesTheMachine(request.url())) network.blocked.push(request.url());
  });
  return { context, network };
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
