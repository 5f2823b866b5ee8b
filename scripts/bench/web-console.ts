/**
 * The web bench's one section, in the process `web-child.ts` forks (`npm run bench -- web`; the figures'
 * names and targets are in `web.ts`): a throw-away local stack serves the built
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
import type { MeasuredFigure } from "./types";

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
 * Opens `path` on `page` and measures when `ready` appears (a MutationObserver set before any of the
 * page's scripts runs) and the scripts that had arrived by then (the page's resource timings): a script
 * still loading when the screen works, the sign-in SDK on the login page, is not needed to use it.
 */
async function visit(page: Page, path: string, ready: string): Promise<Visit> {
  const bodies = new Map<string, Promise<number>>();
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    bodies.set(
      response.url(),
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
  const arrived = (await page.evaluate(
    `performance.getEntriesByType("resource")
      .filter((entry) => entry.initiatorType === "script" || entry.name.endsWith(".js"))
      .filter((entry) => entry.responseEnd <= window.readyAt)
      .map((entry) => entry.name)`,
  )) as string[];
  const sizes = await Promise.all(arrived.map((url) => bodies.get(url) ?? Promise.resolve(0)));
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

function figuresOf(login: Visit[], resources: Visit[]): MeasuredFigure[] {
  const note = (visits: Visit[]) =>
    `${visits.length} cold loads, ${median(visits.map((v) => v.scripts))} script files; each: ${visits
      .map((v) => `${(v.scriptBytes / KB).toFixed(1)} KB in ${v.readyMs.toFixed(0)} ms`)
      .join(", ")}`;
  return [
    { id: "web-login-js", value: median(login.map((v) => v.scriptBytes)) / KB, note: note(login) },
    {
      id: "web-resources-js",
      value: median(resources.map((v) => v.scriptBytes)) / KB,
      note: note(resources),
    },
    {
      id: "web-login-ms",
      value: median(login.map((v) => v.readyMs)),
      note: "from the navigation's start (performance.now in the page), local Hosting emulator",
    },
    {
      id: "web-resources-ms",
      value: median(resources.map((v) => v.readyMs)),
      note: "signed in, from the navigation's start until the first row shows (the API on the local stack)",
    },
  ];
}

/** Starts the stack, measures the console and stops the stack. */
export async function measureConsole(): Promise<MeasuredFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "alpvault-web-bench-"));
  cpSync(resolve(ROOT, "emulator-data"), dataDir, { recursive: true });
  const stack = await startStack({
    dataDir,
    build: true,
    logFile: join(dataDir, "stack.log"),
    scheduler: { everySeconds: 600 },
    googleLatency: true,
    hugeFileBytes: TEST_HUGE_FILE_BYTES,
  });
  let browser: Browser | undefined;
  try {
    if (stack.webUrl !== WEB_URL) throw new Error(`The console is at ${stack.webUrl}, not ${WEB_URL}`);
    // The onboarding helpers find the stack as the test runner tells its tests.
    Object.assign(process.env, stack.env, { ALPVAULT_WEB_URL: stack.webUrl });
    await onboardDemoOrganization();
    browser = await launchBrowser();
    const { login, resources } = await measure(browser);
    return figuresOf(login, resources);
  } finally {
    await browser?.close();
    await stack.stop({ save: false });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
