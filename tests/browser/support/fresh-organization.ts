/**
 * A browser test on an organisation of its own instead of the demo one: a fresh Workspace (as the API tests
 * make it) with messages in its user's mailbox and a file in the user's My Drive, backed up once through
 * the default policy, and its super admin signed in to the web app through Google's sign-in popup. A test
 * can damage its backups or fill its mailboxes without touching what the other browser files rely on.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  assignDefaultPolicy,
  finishedRun,
  itemsOf,
  organizationWithData,
  runsOf,
  type StoredItem,
} from "../../support/backup-runs";
import { collectPageErrors, launchBrowser, newContext } from "./browser";
import { signInThroughPopup, skipResourcesWelcome } from "./onboarding";

export type FreshOrganization = Awaited<ReturnType<typeof organizationWithData>>;

export interface FreshOrganizationPage {
  setup: FreshOrganization;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors so far (a test asserts it stays empty). */
  errors: string[];
}

/** The user's backed-up items of a kind, in item-key order (stable between calls). */
export async function backedUpItems(setup: FreshOrganization, kind = "gmail-message"): Promise<StoredItem[]> {
  return (await itemsOf(setup.organization, setup.resource.resourceId))
    .filter((item) => item.kind === kind)
    .sort((a, b) => (a.itemKey < b.itemKey ? -1 : 1));
}

/** A backed-up message's subject, from the bytes the test put into the mailbox. */
export function subjectOf(setup: FreshOrganization, item: StoredItem): string {
  const raw = setup.raws.get(item.sourceId);
  const subject = raw && /^Subject: (.*)$/m.exec(raw.toString("latin1"))?.[1]?.trim();
  if (!subject) throw new Error(`No subject for ${item.itemKey}`);
  return subject;
}

/**
 * A fresh organisation with `messages` messages and one file ("budget.txt") for its user, backed up once
 * (the run succeeded), and a Chromium page with its super admin signed in on /resources.
 */
export async function freshOrganizationPage(messages: number): Promise<FreshOrganizationPage> {
  const setup = await organizationWithData(messages);
  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  const [run] = await runsOf(setup.organization, setup.resource.resourceId);
  if (!run) throw new Error("Assigning the default policy started no backup");
  const finished = await finishedRun(setup.organization, setup.resource.resourceId, run.runId);
  if (finished.state !== "succeeded") throw new Error(`The backup ended ${JSON.stringify(finished)}`);

  const browser = await launchBrowser();
  const { context } = await newContext(browser);
  const page = await context.newPage();
  await skipResourcesWelcome(page);
  const errors = collectPageErrors(page);
  await page.goto("/login");
  await signInThroughPopup(context, page, "Sign in with Google", {
    email: setup.workspace.admin,
    displayName: "Ada Admin",
  });
  await page.waitForURL((url) => url.pathname === "/resources", { timeout: 60_000 });
  return { setup, browser, context, page, errors };
}

export async function closeFreshOrganizationPage(fresh: Partial<FreshOrganizationPage> | undefined) {
  await fresh?.context?.close();
  await fresh?.browser?.close();
}

/**
 * For the tests of a file or a describe block: a fresh organisation page made before them (then `prepare`
 * run on it) and closed after them. Returns its getter, which fails until it is made.
 */
export function useFreshOrganizationPage(
  messages: number,
  prepare?: (fresh: FreshOrganizationPage) => Promise<void>,
): () => FreshOrganizationPage {
  let fresh: FreshOrganizationPage | undefined;
  beforeAll(async () => {
    fresh = await freshOrganizationPage(messages);
    await prepare?.(fresh);
  });
  afterAll(() => closeFreshOrganizationPage(fresh));
  return () => {
    if (!fresh) throw new Error("The fresh organisation's page was not made");
    return fresh;
  };
}
