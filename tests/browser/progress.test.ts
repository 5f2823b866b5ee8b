/**
 * Watching work finish (docs/backup-engine.md "Totals, rate and time left"), on an organisation of its own:
 * Google answers its user's mail calls slowly (the emulator's latency fault), so that a first backup and a
 * recovery run long enough to be watched. The backup shows its items of the mailbox's total (determinate),
 * the time left and the Gmail limit that sets its pace; the recovery modal estimates the recovery before it
 * starts, as the API does; the recovery's card shows items and bytes of their totals and its pace.
 */
import type { RecoveryEstimate } from "@alpvault/contracts/eta";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { formatStorage } from "../../web/src/lib/format";
import { assignDefaultPolicy, finishedRun, organizationWithData, runsOf } from "../support/backup-runs";
import { FaultsOfThisFile, workspaceAdmin } from "../support/workspace";
import { collectPageErrors, launchBrowser, newContext } from "./support/browser";
import { screenshotBothThemes, signInThroughPopup, skipResourcesWelcome } from "./support/onboarding";
import { closeDialog, dialogSettled, screenshotModalBothThemes } from "./support/recovery-flow";
import { expectSnackbar } from "./support/snackbar";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";

jest.setTimeout(300_000);

const MESSAGES = 24;

let setup: Awaited<ReturnType<typeof organizationWithData>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

const faults = new FaultsOfThisFile();

/** Google takes `ms` over each of the user's calls of `method` from now on. */
async function slowDown(method: string, ms: number): Promise<string> {
  return faults.add({ method, user: setup.workspace.user, action: { kind: "latency", ms } });
}

beforeAll(async () => {
  setup = await organizationWithData(MESSAGES);
  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
  await skipResourcesWelcome(page);
  errors = collectPageErrors(page);
  await page.goto("/login");
  await signInThroughPopup(context, page, "Sign in with Google", {
    email: setup.workspace.admin,
    displayName: "Ada Admin",
  });
  await page.waitForURL((url) => url.pathname === "/resources", { timeout: 60_000 });
});
afterAll(async () => {
  await faults.removeAll();
  await context?.close();
  await browser?.close();
});

/** The resources table's cells `card` covers (their text), as laid out now. */
function coveredCells(card: Locator): Promise<string[]> {
  return card.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return Array.from(document.querySelectorAll('[data-testid="resource-row"] td'))
      .filter((cell) => {
        const at = cell.getBoundingClientRect();
        return at.left < box.right && at.right > box.left && at.top < box.bottom && at.bottom > box.top;
      })
      .map((cell) => cell.textContent ?? "");
  });
}

/** Whether the card's title is cut (wider than the room it shows in). */
function titleCut(card: Locator): Promise<boolean> {
  return card.evaluate((element) => {
    const title = element.querySelector(".MuiTypography-subtitle2");
    return !title || title.scrollWidth > title.clientWidth;
  });
}

/** Starts the first backup and watches it on the resource's page while Google is slow. */
async function watchBackup(): Promise<void> {
  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  await page.goto(`/resources/${setup.resource.resourceId}`);
  const progress = page.locator('[data-testid="backup-progress"][data-state="running"]');
  await progress.waitFor({ timeout: 60_000 });
  const text = progress.getByTestId("backup-progress-text");
  await text.filter({ hasText: ` of ${MESSAGES} items` }).waitFor({ timeout: 60_000 });
  expect(await text.innerText()).toMatch(new RegExp(`^\\d+ of ${MESSAGES} items · `));
  expect(await progress.getByRole("progressbar").getAttribute("aria-valuenow")).not.toBeNull();
  expect(await progress.getByTestId("backup-pace-eta").innerText()).toMatch(/ left$/);
  expect(await progress.getByTestId("backup-pace-limit").innerText()).toBe(
    "pace set by Gmail's read limit of 300 messages a minute per mailbox",
  );
  await screenshotBothThemes(page, "progress-backup");
}

describe("watching work finish", () => {
  it("when a first backup runs, then its page shows the items of the mailbox's total, the time left and Gmail's limit", async () => {
    const slow = await slowDown("gmail.users.messages.get", 5_000);
    try {
      await watchBackup();
    } finally {
      await workspaceAdmin("DELETE", `/faults/${slow}`);
    }
    const [run] = await runsOf(setup.organization, setup.resource.resourceId);
    expect((await finishedRun(setup.organization, setup.resource.resourceId, run!.runId)).state).toBe(
      "succeeded",
    );
  });

  /** Opens the recovery modal of the mailbox's resource and waits for its estimate. */
  async function openRecovery(): Promise<Locator> {
    await page.getByRole("button", { name: `Actions for ${setup.resource.name}` }).click();
    await page.getByRole("menuitem", { name: "Recover all data" }).click();
    const estimate = page.getByRole("dialog", { name: "Recover data" }).getByTestId("recovery-estimate");
    await estimate.waitFor();
    return estimate;
  }

  it("when the estimate answers after the modal opened, then nothing in the modal moves", async () => {
    // The estimate's answer is held until the modal has settled with its place kept.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/recoveries/estimate", async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto("/resources");
      await page.getByRole("button", { name: `Actions for ${setup.resource.name}` }).click();
      await page.getByRole("menuitem", { name: "Recover all data" }).click();
      const dialog = page.getByRole("dialog", { name: "Recover data" });
      await dialog.getByTestId("recovery-estimate-pending").waitFor();
      await dialogSettled(page);
      const drive = dialog.getByRole("radio", { name: "Drive" });
      const recover = dialog.getByRole("button", { name: "Recover", exact: true });
      // Where each sits, to the pixel (the text's line height leaves fractions of one).
      const places = async () =>
        (await Promise.all([drive.boundingBox(), recover.boundingBox()])).map((box) => ({
          x: Math.round(box?.x ?? NaN),
          y: Math.round(box?.y ?? NaN),
        }));
      const before = await places();
      release();
      await dialog.getByTestId("recovery-estimate").waitFor();
      expect(await places()).toEqual(before);
      await closeDialog(page);
    } finally {
      release();
      await page.unroute("**/recoveries/estimate");
    }
  });

  it("when the recovery modal opens for the mailbox, then it estimates the recovery as the API does before it starts", async () => {
    await page.goto("/resources");
    const estimate = await openRecovery();
    const answer = await setup.call(
      `/organizations/${setup.organization.organizationId}/recoveries/estimate`,
      {
        method: "POST",
        body: {
          resourceId: setup.resource.resourceId,
          service: "gmail",
          location: "original",
          method: "folder",
          folderName: "Anything",
        },
      },
    );
    expect(answer.status).toBe(200);
    const expected = answer.body as RecoveryEstimate;
    expect(expected.items).toBe(MESSAGES);
    expect(await estimate.innerText()).toBe(
      `${MESSAGES} items (${formatStorage(expected.bytes)}) to recover: under a minute, at Gmail's import limit of 240 messages a minute per mailbox.`,
    );
    await screenshotModalBothThemes(page, async () => void (await openRecovery()), "recovery-estimate");
  });

  it("when the recovery runs, then its card shows the items and bytes of their totals and its pace", async () => {
    const dialog = page.getByRole("dialog", { name: "Recover data" });
    const slow = await slowDown("gmail.users.messages.import", 2_500);
    await dialog.getByLabel("Folder name").fill("Watched");
    await dialog.getByRole("button", { name: "Recover", exact: true }).click();
    await expectSnackbar(page, RECOVERY_MESSAGES.started, false);
    const card = page.locator('[data-testid="recovery-progress"][data-state="running"]');
    await card.waitFor({ timeout: 60_000 });
    const text = card.getByTestId("recovery-progress-text");
    await text.filter({ hasText: ` of ${MESSAGES} items restored · ` }).waitFor({ timeout: 60_000 });
    expect(await text.innerText()).toMatch(
      new RegExp(`^\\d+ of ${MESSAGES} items restored · [\\d.]+ [KMG]?B of [\\d.]+ [KMG]?B$`),
    );
    expect(await card.getByTestId("recovery-pace-limit").innerText()).toBe(
      "pace set by Gmail's import limit of 240 messages a minute per mailbox",
    );
    // What the card says is true: the pace shown is not faster than the limit it names.
    const pace = /^(\d+) items a minute/.exec(await card.getByTestId("recovery-pace-eta").innerText());
    if (pace) expect(Number(pace[1])).toBeLessThanOrEqual(240);
    // The card sits in the page: it covers no cell of the resources table, and its title shows whole.
    expect(await coveredCells(card)).toEqual([]);
    expect(await titleCut(card)).toBe(false);
    // In the page above the table (floating, it stood over the table's Recover buttons and menus).
    const cardBox = await card.boundingBox();
    const tableBox = await page.getByRole("table").first().boundingBox();
    expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(tableBox!.y);
    await screenshotBothThemes(page, "progress-recovery");
    await workspaceAdmin("DELETE", `/faults/${slow}`);
    await page
      .locator('[data-testid="recovery-progress"][data-state="succeeded"]')
      .waitFor({ timeout: 120_000 });
    expect(errors).toEqual([]);
  });
});
