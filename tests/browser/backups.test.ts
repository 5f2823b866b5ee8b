/**
 * "Backup now" and a backup's live progress on the resources screen (docs/requirements.md#screens-and-navigation, #errors-and-messages) with the demo
 * organisation. One demo mailbox no other browser file uses gets the default policy straight in Firestore
 * (so no backup starts by itself) and a failed last run: its status shows the reason. Backup now is disabled
 * for a resource without a policy. A run written in Firestore stands for a backup already under way: Backup
 * now says so, and the row follows it while the screen polls (waiting, then items and size, then gone). Then
 * Backup now starts a real backup, and the row ends with its last backup date and a backup size.
 *
 * Afterwards the mailbox, its runs, catalog items, backup audit entries and alerts, and the organisation's
 * item counts are put back. The chunk index, the data key and the stored objects stay: they are what later
 * backups of the demo organisation find anyway, and only let them skip uploads.
 */
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { FieldValue, type DocumentReference, type Firestore } from "firebase-admin/firestore";
import { BACKUP_FAILURE_ADVICE, BACKUP_FAILURE_REASONS, BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { writePendingRun } from "../support/backup-runs";
import { afterBackgroundWork } from "../support/wait";
import { DEMO_DOMAIN } from "../support/workspace";
import { screenshot } from "./support/browser";
import { onboardDemoOrganization, screenshotBothThemes } from "./support/onboarding";
import { expectSnackbarAnnounced } from "./support/snackbar";
import { BACKUP_RESOURCE_FIELDS, withOrganizationDb } from "./support/demo-data";

jest.setTimeout(120_000);

/** The mailbox this file backs up: no other browser file uses it. */
const MAILBOX = { name: "Noémie Rochat", email: `noemie.rochat@${DEMO_DOMAIN}` };
/** A resource that keeps no policy here (read only). */
const WITHOUT_POLICY = "Mengia Pult";
/** The resource fields a backup writes, which this file puts back. */
const RESTORED_FIELDS = BACKUP_RESOURCE_FIELDS;
const GB = 1024 ** 3;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let organization: OrganizationSummary | undefined;
let resourceId: string;
const startedAt = new Date().toISOString();
const savedFields: Record<string, unknown> = {};
let savedUsage: Record<string, unknown> | undefined;
let itemsBefore = new Set<string>();
/** The run this file writes to stand for a backup already under way. */
let standInRun: DocumentReference | undefined;

function organizationDb<T>(
  body: (db: Firestore, organizationRef: DocumentReference) => Promise<T>,
): Promise<T> {
  return withOrganizationDb(organization as OrganizationSummary, body);
}

const resourceDoc = (organizationRef: DocumentReference) =>
  organizationRef.collection("resources").doc(resourceId);

/** The mailbox's runs still pending or running (the stand-in one aside). */
async function activeRunsOfMailbox(): Promise<string[]> {
  return organizationDb(async (_, ref) => {
    const runs = await ref.collection("backupRuns").where("resourceId", "==", resourceId).get();
    return runs.docs
      .filter((run) => ["pending", "running"].includes(String(run.get("state"))))
      .filter((run) => run.id !== standInRun?.id)
      .map((run) => run.id);
  });
}

/** Puts back what this file changed in the demo organisation (other browser files run after it). */
async function restoreDemoOrganization(): Promise<void> {
  if (standInRun) await organizationDb(async (db) => void (await db.doc(standInRun!.path).delete()));
  // A backup this file started and that is still running would write the resource after the restore.
  await afterBackgroundWork("The file's backups", activeRunsOfMailbox, (runs) => runs.length === 0);
  await organizationDb(async (db, ref) => {
    const resource = resourceDoc(ref);
    const runs = await ref.collection("backupRuns").where("resourceId", "==", resourceId).get();
    const ours = runs.docs.filter((run) => String(run.get("requestedAt")) >= startedAt);
    const items = await resource.collection("items").get();
    for (const item of items.docs) {
      if (!itemsBefore.has(item.id)) await db.recursiveDelete(item.ref);
    }
    const batch = db.batch();
    for (const run of ours) {
      batch.delete(run.ref);
      batch.delete(ref.collection("alerts").doc(`backup-failed-${run.id}`));
    }
    const entries = await ref.collection("auditLogs").where("date", ">=", startedAt).get();
    for (const entry of entries.docs) {
      if (String(entry.get("operation")).startsWith("backup.")) batch.delete(entry.ref);
    }
    const fields: Record<string, unknown> = {};
    // A field the resource did not have goes again; null stays null.
    for (const field of RESTORED_FIELDS) {
      fields[field] = savedFields[field] === undefined ? FieldValue.delete() : savedFields[field];
    }
    batch.update(resource, fields);
    // The organisation's item counts (the worker sums every resource's): as they were, or none.
    const usage = ref.collection("meta").doc("usage");
    if (savedUsage) batch.set(usage, savedUsage);
    else batch.delete(usage);
    await batch.commit();
  });
}

beforeAll(async () => {
  organization = await onboardDemoOrganization();
  await organizationDb(async (_, ref) => {
    const found = await ref.collection("resources").where("email", "==", MAILBOX.email).get();
    const resource = found.docs[0];
    if (!resource) throw new Error(`The demo organisation has no resource for ${MAILBOX.email}`);
    resourceId = resource.id;
    for (const field of RESTORED_FIELDS) savedFields[field] = resource.get(field) as unknown;
    savedUsage = (await ref.collection("meta").doc("usage").get()).data();
    itemsBefore = new Set((await resource.ref.collection("items").get()).docs.map((doc) => doc.id));
    // The default policy without the assignment's backup (and nothing scheduled), and a failed last run.
    await resource.ref.update({
      policyId: "default",
      policyName: "Default policy",
      protected: true,
      nextBackupAt: null,
      lastRun: {
        runId: "backups-test-earlier-run",
        state: "failed",
        failureReason: "object-storage-unavailable",
        finishedAt: startedAt,
      },
    });
  });
  ({ browser, context, page, errors } = await signedInDemoPage());
});

afterAll(() => closeDemoPage({ browser, context }, organization ? restoreDemoOrganization : undefined));

const mailboxRow = () => page.locator(`[data-testid=resource-row][data-resource-id="${resourceId}"]`);
const rowByName = (name: string) =>
  page.getByTestId("resource-row").filter({ has: page.getByTestId("resource-display-name").getByText(name) });
const progressBar = (row: Locator) =>
  row.getByRole("progressbar", { name: `Backup of ${MAILBOX.name} in progress` });

/** Waits until an opening menu has finished fading in, so screenshots show it whole. */
async function menuSettled(): Promise<void> {
  await page.waitForFunction(() => {
    const element = document.querySelector(".MuiMenu-paper");
    return element !== null && getComputedStyle(element).opacity === "1";
  });
}

async function openRowMenu(name: string): Promise<Locator> {
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  return menu;
}

async function closeMenu(): Promise<void> {
  await page.keyboard.press("Escape");
  await page.getByRole("menu").waitFor({ state: "hidden" });
}

/** Waits until the mailbox's row reads like `pattern` (the screen reloads the list on its own). */
async function waitForRow(pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    ({ selector, source, flags }) =>
      new RegExp(source, flags).test(document.querySelector<HTMLElement>(selector)?.innerText ?? ""),
    {
      selector: `[data-testid=resource-row][data-resource-id="${resourceId}"]`,
      source: pattern.source,
      flags: pattern.flags,
    },
    { timeout: 60_000 },
  );
  return mailboxRow().innerText();
}

/** A row showing a backup under way: waiting, or items and size so far. */
const UNDER_WAY = /Waiting to start|\d+ items? · /;
/** A row whose last backup is set and that shows no backup under way. */
const BACKED_UP = /^(?![\s\S]*(Waiting to start|\d+ items? · ))[\s\S]*Last: (?!never)/;

/** Waits until the analytics and the alerts have loaded, so screenshots show them. */
async function figuresLoaded(): Promise<void> {
  await page.getByTestId("analytics-protected-value").waitFor();
  await page.waitForFunction(() => {
    const panel = document.querySelector<HTMLElement>("[data-testid=alerts-panel]");
    return panel?.querySelector("[data-testid=alert-item]") || panel?.innerText.includes("No alerts");
  });
}

async function figures(): Promise<{ emails: string; size: string }> {
  return {
    emails: await page.getByTestId("analytics-emails").innerText(),
    size: await page.getByTestId("analytics-size").innerText(),
  };
}

describe("backups from the resources screen", () => {
  it("when a resource's last backup failed, then its status shows the required reason", async () => {
    const row = mailboxRow();
    await row.filter({ hasText: "Default policy" }).waitFor();
    const failure = row.getByTestId("backup-failure");
    await failure.waitFor();
    expect(await failure.innerText()).toBe(
      `Backup failed: ${BACKUP_FAILURE_REASONS["object-storage-unavailable"]}`,
    );
    // What happened and what to do, and the reason's code for support.
    await failure.hover();
    const advice = page.getByRole("tooltip").getByTestId("failure-advice");
    await advice.waitFor();
    expect(await advice.innerText()).toContain(BACKUP_FAILURE_ADVICE["object-storage-unavailable"]);
    expect(await advice.innerText()).toContain("For support: object-storage-unavailable");
    await page.mouse.move(0, 0);
    await advice.waitFor({ state: "detached" });
    expect(await row.getByTestId("resource-status").innerText()).toContain("Protected");
    expect(await row.getByTestId("resource-dates").innerText()).toContain("Last: never");
    expect(await progressBar(row).count()).toBe(0);
    await figuresLoaded();
    await screenshotBothThemes(page, "backups-failed-status");
  });

  it("when a resource has no policy, then Backup now is disabled and says why", async () => {
    const row = rowByName(WITHOUT_POLICY);
    await row.waitFor();
    expect(await row.innerText()).toContain("No policy");
    const menu = await openRowMenu(WITHOUT_POLICY);
    const items = await menu.getByRole("menuitem").allInnerTexts();
    expect(items.map((item) => item.split("\n")[0]?.trim())).toEqual([
      "Recover specific data",
      "Recover all data",
      "Backup now",
      "Change backup policy",
    ]);
    expect(items[0]?.trim()).toBe("Recover specific data");
    expect(items[1]?.trim()).toBe("Recover all data");
    const backupNow = menu.getByRole("menuitem", { name: /Backup now/ });
    expect(await backupNow.isDisabled()).toBe(true);
    expect(await backupNow.innerText()).toContain("Assign a backup policy first");
    await menuSettled();
    await screenshot(page, "backups-menu-no-policy");
    await closeMenu();

    const ownMenu = await openRowMenu(MAILBOX.name);
    const ownItem = ownMenu.getByRole("menuitem", { name: /Backup now/ });
    expect(await ownItem.isDisabled()).toBe(false);
    expect(await ownItem.innerText()).toBe("Backup now");
    await closeMenu();
  });

  it("when a backup of the resource is already under way, then Backup now says so and the row follows it live", async () => {
    // A run as the API writes one, not enqueued: it stays pending until this test moves it on.
    standInRun = await organizationDb((_, ref) => writePendingRun(ref, resourceId, "backups.test"));
    const menu = await openRowMenu(MAILBOX.name);
    await menu.getByRole("menuitem", { name: "Backup now" }).click();
    // Read while the menu closes: not under the page the menu hides from assistive technology.
    await expectSnackbarAnnounced(page, BACKUP_MESSAGES.alreadyRunning, false);

    const row = mailboxRow();
    await progressBar(row).waitFor();
    const dates = row.getByTestId("resource-dates");
    expect(await dates.getByTestId("backup-progress").innerText()).toBe("Waiting to start");
    // While a backup is under way the last failure is not what the row is about.
    expect(await row.getByTestId("backup-failure").count()).toBe(0);
    await screenshotBothThemes(page, "backups-waiting");

    // The run starts and backs up 12 items, 3.5 MB: the screen polls and shows it without a reload.
    await organizationDb(async (db) => {
      await db.doc(standInRun!.path).update({
        state: "running",
        startedAt: new Date().toISOString(),
        progress: { items: 12, bytes: 3.5 * 1024 * 1024, storedBytes: 0 },
        // A live lease: the dispatcher leaves a held run alone.
        lease: { holder: "backups.test", until: new Date(Date.now() + 10 * 60_000).toISOString() },
      });
    });
    await dates.getByText("12 items · 3.50 MB", { exact: true }).waitFor({ timeout: 15_000 });
    expect(await progressBar(row).count()).toBe(1);
    await screenshot(page, "backups-running");

    // The run is gone: the row goes back to its dates, and its last failure.
    await organizationDb(async (db) => void (await db.doc(standInRun!.path).delete()));
    standInRun = undefined;
    await progressBar(row).waitFor({ state: "detached", timeout: 15_000 });
    expect(await dates.innerText()).toContain("Next: not scheduled");
    await row.getByTestId("backup-failure").waitFor();
  });

  it("when Backup now is chosen, then the backup starts, shows its progress while it runs, and the row gets its last backup date and size", async () => {
    const row = mailboxRow();
    await figuresLoaded();
    const before = await figures();
    expect(await row.getByTestId("resource-storage").innerText()).toBe("0.00 GB");

    const menu = await openRowMenu(MAILBOX.name);
    await menu.getByRole("menuitem", { name: "Backup now" }).click();
    await expectSnackbarAnnounced(page, BACKUP_MESSAGES.started, false);

    // The table reloads at once: the run is shown pending or running, unless it is over already.
    const dates = row.getByTestId("resource-dates");
    const seen = await waitForRow(new RegExp(`${UNDER_WAY.source}|Last: (?!never)`));
    if (!UNDER_WAY.test(seen)) {
      console.log("The backup was over before the table reloaded; its progress was not seen.");
    } else {
      expect(await progressBar(row).count()).toBe(1);
      await screenshot(page, "backups-in-progress");
    }

    // Over: the last backup is set, the progress and the earlier failure are gone, the size is recorded.
    await waitForRow(BACKED_UP);
    expect(await progressBar(row).count()).toBe(0);
    expect(await dates.innerText()).toMatch(/^Last: (now|\d+ seconds? ago|1 minute ago)/);
    expect(await row.getByTestId("backup-failure").count()).toBe(0);
    const stored = await organizationDb(async (_, ref) => (await resourceDoc(ref).get()).data() ?? {});
    expect(stored.lastRun).toMatchObject({ state: "succeeded" });
    const bytes = Number(stored.mailBackupBytes) + Number(stored.driveBackupBytes);
    expect(Number(stored.mailItems)).toBeGreaterThan(0);
    expect(Number(stored.driveItems)).toBeGreaterThan(0);
    // The column is in GB (docs/requirements.md#screens-and-navigation); a backup too small for two decimals does not read as none.
    const storage = row.getByTestId("resource-storage");
    expect(bytes).toBeGreaterThan(0);
    expect(await storage.innerText()).toBe(
      bytes < 0.005 * GB ? "< 0.01 GB" : `${(bytes / GB).toFixed(2)} GB`,
    );
    expect(await storage.locator("[title]").getAttribute("title")).toMatch(/^\d+\.\d{2} (B|KB|MB|GB)$/);

    // The figures that follow finished backups catch up without a reload.
    await page.waitForFunction(
      (previous) => document.querySelector("[data-testid=analytics-emails]")?.textContent !== previous,
      before.emails,
    );
    const after = await figures();
    expect(Number(after.emails.replace(/\D/g, ""))).toBeGreaterThan(Number(before.emails.replace(/\D/g, "")));
    expect(after.size).not.toBe(before.size);
    await screenshotBothThemes(page, "backups-done");
  });

  it("when the screen was used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
