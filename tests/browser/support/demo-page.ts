/**
 * The usual set-up of a browser test file on the demo organisation: Chromium, a fresh offline context, the
 * resources welcome skipped, page errors collected, the demo super admin signed in.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { demoSignIn } from "./app";
import { collectPageErrors, launchBrowser, newContext } from "./browser";
import { DEMO_DOMAIN, skipResourcesWelcome, uninstallApp } from "./onboarding";

export interface DemoPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors so far (a test asserts it stays empty). */
  errors: string[];
}

/** A browser signed in as the demo organisation's admin; `viewport`: the window's size (default 1440 × 900). */
export async function signedInDemoPage(viewport?: { width: number; height: number }): Promise<DemoPage> {
  const browser = await launchBrowser();
  const { context } = await newContext(browser, viewport ? { viewport } : {});
  const page = await context.newPage();
  await skipResourcesWelcome(page);
  const errors = collectPageErrors(page);
  await demoSignIn(page);
  return { browser, context, page, errors };
}

/** Closes the browser, then puts the demo organisation back (`restore`) and uninstalls its app. */
export async function closeDemoPage(
  demo: Partial<DemoPage> | undefined,
  restore?: () => Promise<void>,
): Promise<void> {
  await demo?.context?.close();
  await demo?.browser?.close();
  if (restore) await restore();
  await uninstallApp(DEMO_DOMAIN);
}
