/**
 * The web console's weight and speed (`npm run bench -- web`): a throw-away local stack serves the built
 * console (Firebase Hosting emulator) and the demo organisation; Chromium opens the login page and the
 * resources screen, each on a cold cache, several times. Measured:
 * - the JavaScript a screen loads (every script response until the screen is ready, gzipped as Hosting
 *   serves it), against 200 KB for the login and 300 KB for the resources screen;
 * - the time from the navigation's start until the login button can be clicked, and until the resources
 *   table shows its rows (median of the runs), read in the page (`performance.now()`) when the element
 *   appears.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { WEB_URL, launchBrowser, newContext } from "../../tests/browser/support/browser";
import { onboardDemoOrganization, skipResourcesWelcome } from "../../tests/browser/support/onboarding";
import { ROOT } from "../ports";
import { TEST_HUGE_FILE_BYTES, startStack } from "../stack";
import { figureSpec, type Bench, type BenchFigure, type BenchReport } from "./types";

const RUNS = 5;
const KB = 1024;

/** A screen is ready when this element is there (for a button: enabled). */
const READY = {
  login: 'button:not([disabled])[data-testid="google-sign-in"]',
  resources: '[data-testid="resource-row"]',
} as const;

interface Visit {
  scriptBytes: number;
  scripts: number;
  readyMs: number;
}

/**
 * Opens `path` on `page` and measures the scripts it loads until `ready` appears, and when it appears (a
 * MutationObserver set before any of the page's scripts runs).
 */
async function visit(page: Page, path: string, ready: string): Promise<Visit> {
  const bodies: Promise<number>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    bodies.push(
      response.body().then(
        (body) => gzipSync(body).length,
        () => 0,
      ),
    );
  });
  await page.addInitScript({
    content: `(() => {
      const selector = ${JSON.stringify(ready)};
      const mark = () => {
        if (!document.querySelector(selector)) return false;
        window.readyAt ??= performance.now();
        return true;
      };
      new MutationObserver((records, observer) => {
        if (mark()) observer.disconnect();
      }).observe(document, { childList: true, subtree: true, attributes: true });
    })();`,
  });
  await page.goto(path);
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  const readyMs = Number(await page.evaluate("window.readyAt ?? NaN"));
  // What was requested until then: scripts loaded later (a dialog opened afterwards) do not count.
  const sizes = await Promise.all(bodies);
  return { scriptBytes: sizes.reduce((sum, size) => sum + size, 0), scripts: sizes.length, readyMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] as number;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

async function measure(browser: Browser): Promise<{ login: Visit[]; resources: Visit[] }> {
  const login: Visit[] = [];
  const resources: Visit[] = [];
  for (let run = 0; run < RUNS; run++) {
    // A new context each time: an empty HTTP cache, nothing stored.
    const fresh = await newContext(browser);
    login.push(await visit(await fresh.context.newPage(), "/login", READY.login));
    await fresh.context.close();

    const signed = await newContext(browser);
    const page = await signed.context.newPage();
    await skipResourcesWelcome(page);
    await page.goto("/login");
    await page.getByRole("button", { name: "Demo sign-in" }).click();
    await page.waitForURL((url) => url.pathname === "/resources");
    // The session is stored in the context; its pages share one HTTP cache, emptied before the visit.
    const cdp = await signed.context.newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    const opened = await signed.context.newPage();
    await skipResourcesWelcome(opened);
    resources.push(await visit(opened, "/resources", READY.resources));
    await signed.context.close();
  }
  return { login, resources };
}

function figuresOf(login: Visit[], resources: Visit[]): BenchFigure[] {
  const note = (visits: Visit[]) =>
    `${visits.length} cold loads, ${median(visits.map((v) => v.scripts))} script files; each: ${visits
      .map((v) => `${(v.scriptBytes / KB).toFixed(1)} KB in ${v.readyMs.toFixed(0)} ms`)
      .join(", ")}`;
  const kb = { unit: "KB", digits: 1 };
  return [
    {
      ...figureSpec("web-login-js", "JavaScript until the login button works (gzip)", "<=", 200, kb),
      value: median(login.map((v) => v.scriptBytes)) / KB,
      note: note(login),
    },
    {
      ...figureSpec("web-resources-js", "JavaScript until the resources table shows (gzip)", "<=", 300, kb),
      value: median(resources.map((v) => v.scriptBytes)) / KB,
      note: note(resources),
    },
    {
      ...figureSpec("web-login-ms", "Time to the login button (median)", "<=", 1_000, { unit: "ms" }),
      value: median(login.map((v) => v.readyMs)),
      note: "from the navigation's start (performance.now in the page), local Hosting emulator",
    },
    {
      ...figureSpec("web-resources-ms", "Time to the resources table (median)", "<=", 3_000, { unit: "ms" }),
      value: median(resources.map((v) => v.readyMs)),
      note: "signed in, from the navigation's start until the first row shows (the API on the local stack)",
    },
  ];
}

async function benchWeb(): Promise<BenchReport> {
  const dataDir = mkdtempSync(join(tmpdir(), "alpvault-web-bench-"));
  cpSync(resolve(ROOT, "emulator-data"), dataDir, { recursive: true });
  const stack = await startStack({
    dataDir,
    build: true,
    logFile: join(dataDir, "stack.log"),
    schedulerIntervalSeconds: 600,
    googleLatency: true,
    hugeFileBytes: TEST_HUGE_FILE_BYTES,
  });
  let browser: Browser | undefined;
  try {
    if (stack.webUrl !== WEB_URL) throw new Error(`The console is at ${stack.webUrl}, not ${WEB_URL}`);
    await onboardDemoOrganization();
    browser = await launchBrowser();
    const { login, resources } = await measure(browser);
    return { results: [], figures: figuresOf(login, resources) };
  } finally {
    await browser?.close();
    await stack.stop({ save: false });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const webBench: Bench = {
  id: "web",
  title:
    "Web console: JavaScript loaded and time to the login and the resources screen (local stack, Chromium)",
  run: benchWeb,
};
