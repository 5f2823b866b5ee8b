/**
 * One journey through the whole deployed shape: the web app from Hosting, its calls through Hosting's
 * `/v1` rewrite and the regional API sites to the Functions emulator, backups and recoveries delivered by
 * Cloud Tasks to the task-queue workers, sign-in through the Auth emulator. A new admin of a fresh
 * Workspace signs up with Google, installs the app from the Workspace emulator's Marketplace, chooses the
 * region, assigns the backup policy to a mailbox (its backup runs), finds a message deleted since in Search
 * Backups and recovers it into a folder: Gmail has it again. Each step's details are the browser files'
 * (tests/browser), which answer the API from the test's own process.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SCOPES, testMessage } from "../../emulators/workspace/src/index";
import { newWorkspace, type TestWorkspace } from "../support/organizations";
import { gmailFor, workspaceAdmin } from "../support/workspace";
import { collectPageErrors, launchBrowser, newContext, screenshot } from "../browser/support/browser";
import { completeRegionStep, signInThroughPopup, skipResourcesWelcome } from "../browser/support/onboarding";
import { dialogSettled, recoveryDialog, recoveryEnded } from "../browser/support/recovery-flow";
import { expectSnackbar } from "../browser/support/snackbar";

jest.setTimeout(300_000);

const FOLDER = "Journey-recovered";
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let workspace: TestWorkspace;
/** The message the journey deletes and recovers. */
let message: { id: string; subject: string; keyword: string };

beforeAll(async () => {
  workspace = await newWorkspace({ installed: false });
  const keyword = `quokka${Date.now().toString(36)}`;
  for (const [index, subject] of [`Board minutes ${keyword}`, "Travel plans", "Lunch on Friday"].entries()) {
    const raw = testMessage({ subject, to: workspace.user, messageId: `j${index}.${keyword}@x.test` });
    const added = await workspaceAdmin<{ id: string }>("POST", `/users/${workspace.user}/gmail/messages`, {
      raw: raw.toString("base64"),
      encoding: "base64",
    });
    expect(added.status).toBe(200);
    if (index === 0) message = { id: added.body.id, subject, keyword };
  }
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
  await skipResourcesWelcome(page);
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

test("when a new admin signs up, installs the app from the Marketplace and chooses the region, then the resources list shows the Workspace's mailboxes", async () => {
  const admin = { email: workspace.admin, displayName: "Ada Admin" };
  await page.goto("/sign-up");
  await signInThroughPopup(context, page, "Sign up with Google", admin);
  await page.waitForURL((url) => url.pathname === "/onboarding/step-1");
  const [marketplace] = await Promise.all([
    context.waitForEvent("page"),
    page.getByTestId("marketplace-link").click(),
  ]);
  await marketplace.getByRole("link", { name: "Admin install" }).click();
  await marketplace.getByTestId("marketplace-account").filter({ hasText: admin.email }).click();
  await marketplace.getByRole("button", { name: "Install" }).click();
  await marketplace.getByTestId("marketplace-installed").waitFor();
  await marketplace.close();
  await page.bringToFront();
  await page.getByRole("button", { name: "Verify installation" }).click();
  await page.waitForURL((url) => url.pathname === "/onboarding/step-3");
  await completeRegionStep(page, "Switzerland");
  await page.getByRole("checkbox", { name: "Select Ueli User" }).waitFor();
});

test("when the backup policy is assigned to a mailbox, then its backup runs through the task queue and the row shows its last backup", async () => {
  await page.getByRole("checkbox", { name: "Select Ueli User" }).check();
  await page.getByRole("button", { name: /^Assign backup policy$/i }).click();
  const dialog = page.getByRole("dialog", { name: /^Assign backup policy$/i });
  await dialog.getByRole("button", { name: "Assign", exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
  const row = page.locator("[data-testid=resource-row]").filter({ hasText: workspace.user });
  await page.waitForFunction(
    (email) =>
      Array.from(document.querySelectorAll<HTMLElement>("[data-testid=resource-row]")).some(
        (candidate) => candidate.innerText.includes(email) && /Last: (?!never)/.test(candidate.innerText),
      ),
    workspace.user,
    { timeout: 120_000 },
  );
  await screenshot(page, "journey-backed-up");
  expect(await row.getByTestId("resource-status").innerText()).toContain("Protected");
});

test("when a deleted message is found in Search Backups and recovered, then Gmail has it again in the folder", async () => {
  const deleted = await workspaceAdmin("DELETE", `/users/${workspace.user}/gmail/messages/${message.id}`);
  expect(deleted.status).toBeLessThan(300);
  await page.getByRole("button", { name: "Actions for Ueli User" }).click();
  await page.getByRole("menu").getByRole("menuitem", { name: "Recover specific data" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/search/"));
  await page.getByLabel("Keyword").fill(message.keyword);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("1 result", { exact: true }).waitFor();
  await page.getByRole("checkbox", { name: `Select ${message.subject}` }).check();
  await page.getByTestId("search-screen").getByRole("button", { name: "Recover" }).click();
  await dialogSettled(page);
  await recoveryDialog(page).getByLabel("Folder name").fill(FOLDER);
  await recoveryDialog(page).getByRole("button", { name: "Recover", exact: true }).click();
  await expectSnackbar(page, "Recovery started", false);
  expect((await recoveryEnded(page)).state).toBe("succeeded");

  const gmail = gmailFor(workspace.user, [SCOPES.gmailReadonly]);
  const found = await gmail.users.messages.list({ userId: "me", q: message.keyword });
  expect(found.data.messages ?? []).toHaveLength(1);
  const { data: labels } = await gmail.users.labels.list({ userId: "me" });
  const folder = labels.labels?.find((label) => label.name === FOLDER);
  const restored = await gmail.users.messages.get({ userId: "me", id: found.data.messages![0]!.id! });
  expect(restored.data.labelIds).toContain(folder?.id);
});

test("when the journey ran, then no page error occurred", () => {
  expect(errors).toEqual([]);
});
