/**
 * Recovering backed-up mail from the web app (docs/requirements.md#screens-and-navigation recovery modal, #validation, #errors-and-messages) with the demo organisation.
 * One demo mailbox no other browser file uses gets the default policy straight in Firestore, and "Backup
 * now" backs it up for real. One of its messages is then deleted in the Workspace emulator; the row menu's
 * "Recover specific data" opens Search Backups for the mailbox, a word of the message's subject finds it,
 * and Recover brings it back through the recovery modal (original mailbox, separate folder): the snackbar
 * says the recovery started, its progress follows it to the end, and Gmail has the message again, byte for
 * byte, under the folder's label. The modal's rules show their texts, a recovery while another one holds the
 * mailbox shows the API's 409 text, and "Recover all data" and the table's Recover open the modal for the
 * whole mailbox with a choice of service.
 *
 * Afterwards the mailbox's resource fields, runs, catalog items, alerts, audit entries, the recoveries and
 * their locks, and the organisation's item counts are put back, and the folder's label is deleted from the
 * mailbox (the restored message is the deleted one again, under its own labels).
 */
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { SCOPES } from "../../emulators/workspace/src/index";
import { DEMO_DOMAIN, gmailFor, workspaceAdmin } from "../support/workspace";
import { screenshot } from "./support/browser";
import { onboardDemoOrganization, pathnameOf } from "./support/onboarding";
import { expectSnackbar } from "./support/snackbar";
import {
  backUpNow,
  closeDialog,
  dialogSettled,
  openRowMenu,
  protectDemoResource,
  recoveryDialog,
  recoveryEnded,
  recoveryProgress,
  resourceRow,
  screenshotModalBothThemes,
  type DemoResource,
} from "./support/recovery-flow";

jest.setTimeout(180_000);

/** The mailbox this file backs up and recovers: no other browser file uses it. */
const MAILBOX = { name: "Giulia Bernasconi", email: `giulia.bernasconi@${DEMO_DOMAIN}` };
const FOLDER = "Recovered-e2e";
/** Who asks for this file's stand-in recovery. */
const STAND_IN = "recovery.test";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let mailbox: DemoResource | undefined;
let resourceId: string;
/** The message this file deletes and recovers, as Gmail had it. */
let message: { id: string; subject: string; keyword: string; messageId: string; raw: Buffer } | undefined;

const gmail = () => gmailFor(MAILBOX.email, [SCOPES.gmailReadonly]);

/** Deletes the folder's label from the mailbox (the restored message keeps its own labels). */
async function deleteFolderLabel(): Promise<void> {
  const client = gmailFor(MAILBOX.email, [SCOPES.gmailModify]);
  const { data } = await client.users.labels.list({ userId: "me" });
  for (const label of data.labels ?? []) {
    if (label.name === FOLDER && label.id) await client.users.labels.delete({ userId: "me", id: label.id });
  }
}

beforeAll(async () => {
  const organization = await onboardDemoOrganization();
  mailbox = await protectDemoResource(organization, MAILBOX.email, { standIn: STAND_IN });
  resourceId = mailbox.resourceId;
  ({ browser, context, page, errors } = await signedInDemoPage());
});

/** Puts back what this file changed in the demo organisation and the mailbox (other browser files run after it). */
afterAll(() =>
  closeDemoPage(
    { browser, context },
    mailbox
      ? async () => {
          await mailbox?.restore();
          await deleteFolderLabel();
        }
      : undefined,
  ),
);

const mailboxRow = () => resourceRow(page, resourceId);
const dialog = () => recoveryDialog(page);
const helperOf = (id: "recovery-folder-name" | "recovery-target") => page.locator(`#${id}-helper-text`);
const progress = () => recoveryProgress(page);
const searchRecover = () => page.getByTestId("search-screen").getByRole("button", { name: "Recover" });

/** The words of a text as the catalog keeps them (lower case). */
const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u);

/**
 * A message of the mailbox's inbox whose subject is its own and has a plain word (4 letters or more) that no
 * other message's subject, sender or recipients use: searching that word finds it alone.
 */
async function chooseMessage(): Promise<NonNullable<typeof message>> {
  const { data } = await gmail().users.messages.list({ userId: "me", maxResults: 500 });
  const headers = await Promise.all(
    (data.messages ?? []).map(async ({ id }) => {
      const full = await gmail().users.messages.get({
        userId: "me",
        id: id!,
        format: "metadata",
        metadataHeaders: ["Subject", "From", "To"],
      });
      const header = (name: string) =>
        full.data.payload?.headers?.find((entry) => entry.name?.toLowerCase() === name.toLowerCase())
          ?.value ?? "";
      return {
        id: id!,
        labels: full.data.labelIds ?? [],
        subject: header("Subject"),
        text: `${header("Subject")} ${header("From")} ${header("To")}`,
      };
    }),
  );
  const uses = new Map<string, number>();
  for (const entry of headers) {
    for (const word of new Set(wordsOf(entry.text))) uses.set(word, (uses.get(word) ?? 0) + 1);
  }
  for (const entry of headers) {
    if (!entry.labels.includes("INBOX") || entry.subject.trim() === "") continue;
    if (headers.filter((other) => other.subject === entry.subject).length > 1) continue;
    const keyword = wordsOf(entry.subject).find((word) => /^[a-z]{4,}$/.test(word) && uses.get(word) === 1);
    if (!keyword) continue;
    const full = await gmail().users.messages.get({ userId: "me", id: entry.id, format: "raw" });
    const raw = Buffer.from(full.data.raw!, "base64url");
    const messageId = /^Message-ID:\s*<([^>]+)>/im.exec(raw.toString("latin1"))?.[1];
    if (messageId) return { id: entry.id, subject: entry.subject, keyword, messageId, raw };
  }
  throw new Error(`No message of ${MAILBOX.email} has a subject word of its own`);
}

/** The mailbox's messages with the chosen message's Message-ID. */
async function copiesOfMessage(): Promise<{ raw: Buffer; labels: string[] }[]> {
  const { data } = await gmail().users.messages.list({
    userId: "me",
    q: `rfc822msgid:${message!.messageId}`,
    includeSpamTrash: true,
  });
  const { data: labels } = await gmail().users.labels.list({ userId: "me" });
  const nameOf = new Map((labels.labels ?? []).map((label) => [label.id!, label.name!]));
  return Promise.all(
    (data.messages ?? []).map(async ({ id }) => {
      const full = await gmail().users.messages.get({ userId: "me", id: id!, format: "raw" });
      return {
        raw: Buffer.from(full.data.raw!, "base64url"),
        labels: (full.data.labelIds ?? []).map((labelId) => nameOf.get(labelId) ?? labelId),
      };
    }),
  );
}

describe("recovery from the web app", () => {
  it("when Backup now is chosen, then the mailbox is backed up", async () => {
    const stored = await backUpNow(page, mailbox!, MAILBOX.name);
    expect(stored.lastRun).toMatchObject({ state: "succeeded" });
    expect(Number(stored.mailItems)).toBeGreaterThan(0);
  });

  it("when Recover all data or the row's Recover is chosen, then the modal opens for the whole mailbox with a choice of service", async () => {
    const menu = await openRowMenu(page, MAILBOX.name);
    const items = await menu.getByRole("menuitem").allInnerTexts();
    expect(items.map((item) => item.trim())).toEqual([
      "Recover specific data",
      "Recover all data",
      "Backup now",
      "Change backup policy",
    ]);
    await menu.getByRole("menuitem", { name: "Recover all data" }).click();
    await dialogSettled(page);
    expect(await dialog().getByTestId("recovery-subject").innerText()).toMatch(
      new RegExp(
        `^From ${MAILBOX.name} \\(${MAILBOX.email}\\)\\s+Everything backed up of the chosen service$`,
      ),
    );
    expect(await dialog().getByRole("radio", { name: "Gmail" }).isChecked()).toBe(true);
    expect(await dialog().getByRole("radio", { name: "Original resource" }).isChecked()).toBe(true);
    expect(await dialog().getByRole("radio", { name: "Separate folder" }).isChecked()).toBe(true);
    // Sharing permissions are Drive's only.
    expect(await dialog().getByRole("checkbox", { name: "Recover sharing permissions" }).count()).toBe(0);
    await dialog().getByRole("radio", { name: "Drive" }).check();
    await dialog().getByRole("checkbox", { name: "Recover sharing permissions" }).waitFor();
    await dialog().getByRole("radio", { name: "Overwrite existing content" }).check();
    expect(await dialog().getByLabel("Folder name").count()).toBe(0);
    await screenshot(page, "recovery-all-data");
    await closeDialog(page);

    await mailboxRow().getByRole("button", { name: "Recover", exact: true }).click();
    await dialogSettled(page);
    expect(await dialog().getByRole("radio", { name: "Gmail" }).isChecked()).toBe(true);
    expect(await dialog().getByTestId("recovery-subject").innerText()).toContain(
      "Everything backed up of the chosen service",
    );
    await closeDialog(page);
  });

  it("when a message is deleted and found in Search Backups from Recover specific data, then the modal checks its rules", async () => {
    message = await chooseMessage();
    const deleted = await workspaceAdmin("DELETE", `/users/${MAILBOX.email}/gmail/messages/${message.id}`);
    expect(deleted.status).toBeLessThan(300);
    expect(await copiesOfMessage()).toEqual([]);

    const menu = await openRowMenu(page, MAILBOX.name);
    await menu.getByRole("menuitem", { name: "Recover specific data" }).click();
    await page.waitForURL((url) => url.pathname === `/search/${encodeURIComponent(resourceId)}`);
    expect(pathnameOf(page)).toBe(`/search/${encodeURIComponent(resourceId)}`);
    await page.getByTestId("search-total").waitFor();
    expect(await page.getByLabel("Resource name or email").inputValue()).toBe(MAILBOX.email);
    await page.getByLabel("Keyword").fill(message.keyword);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("1 result", { exact: true }).waitFor();
    expect(await page.getByTestId("search-result").locator("td:nth-child(2)").innerText()).toBe(
      message.subject,
    );
    expect(await searchRecover().isDisabled()).toBe(true);
    await page.getByRole("checkbox", { name: `Select ${message.subject}` }).check();
    await searchRecover().click();
    await dialogSettled(page);
    expect(await dialog().getByTestId("recovery-subject").innerText()).toMatch(
      new RegExp(`^From ${MAILBOX.name} \\(${MAILBOX.email}\\)\\s+1 selected item$`),
    );
    // Recovering found mail: its service is the tab's, no choice.
    expect(await dialog().getByRole("radio", { name: "Gmail" }).count()).toBe(0);
    expect(await dialog().getByRole("checkbox", { name: "Recover sharing permissions" }).count()).toBe(0);

    await dialog().getByRole("button", { name: "Recover", exact: true }).click();
    await helperOf("recovery-folder-name")
      .getByText(RECOVERY_MESSAGES.folderRequired, { exact: true })
      .waitFor();
    await dialog().getByLabel("Folder name").fill("bad name!");
    await helperOf("recovery-folder-name")
      .getByText(RECOVERY_MESSAGES.folderCharacters, { exact: true })
      .waitFor();
    await dialog().getByRole("radio", { name: "Another resource" }).check();
    await dialog().getByRole("button", { name: "Recover", exact: true }).click();
    await helperOf("recovery-target").getByText(RECOVERY_MESSAGES.targetRequired, { exact: true }).waitFor();
    // The picker offers the organisation's other mailboxes (mail cannot go to a shared drive).
    await dialog().getByLabel("Resource to recover to").click();
    await page.getByRole("listbox").getByRole("option").first().waitFor();
    const options = await page.getByRole("listbox").getByRole("option").allInnerTexts();
    expect(options.length).toBeGreaterThan(0);
    expect(options.every((option) => /\(.+@.+\)$/.test(option))).toBe(true);
    expect(options.some((option) => option.includes(MAILBOX.email))).toBe(false);
    await page.keyboard.press("Escape");
    // Nothing reached the API.
    expect(await dialog().getByTestId("recovery-error").count()).toBe(0);
    expect(await mailbox!.recoveriesSoFar()).toBe(0);
    await screenshotModalBothThemes(
      page,
      async () => {
        await searchRecover().click();
        await dialog().getByLabel("Folder name").fill("bad name!");
        await dialog().getByRole("radio", { name: "Another resource" }).check();
        await dialog().getByRole("button", { name: "Recover", exact: true }).click();
        await helperOf("recovery-target").getByText(RECOVERY_MESSAGES.targetRequired).waitFor();
      },
      "recovery-modal-invalid",
    );
    await closeDialog(page);
  });

  /** Asks for the message's recovery into a folder and answers the modal's error text once it shows. */
  async function refusedRecoveryText(): Promise<string> {
    await searchRecover().click();
    await dialogSettled(page);
    await dialog().getByLabel("Folder name").fill(FOLDER);
    await dialog().getByRole("button", { name: "Recover", exact: true }).click();
    const error = dialog().getByTestId("recovery-error");
    await error.waitFor();
    return error.innerText();
  }

  it("when another recovery holds the mailbox, then the modal shows the API's text", async () => {
    // A recovery as the API writes one, not enqueued: it holds the mailbox until this test removes it.
    const standIn = await mailbox!.db(async (_, ref) => {
      const recovery = ref.collection("recoveries").doc();
      await recovery.create({
        state: "running",
        service: "gmail",
        resourceId,
        targetResourceId: resourceId,
        method: "overwrite",
        folderName: null,
        permissions: false,
        itemIds: null,
        requestedAt: new Date().toISOString(),
        requestedBy: STAND_IN,
        finishedAt: null,
        progress: { total: 0, restored: 0, skipped: 0, failed: 0 },
        failureReason: null,
        position: { index: 0, lastItemKey: null },
        lease: { holder: STAND_IN, until: new Date(Date.now() + 10 * 60_000).toISOString() },
      });
      await ref
        .collection("recoveryLocks")
        .doc(resourceId)
        .set({ recoveryId: recovery.id, at: new Date().toISOString() });
      return recovery;
    });
    try {
      expect(await refusedRecoveryText()).toBe(RECOVERY_MESSAGES.inProgress);
      await screenshot(page, "recovery-modal-in-progress");
      await closeDialog(page);
    } finally {
      await mailbox!.db(async (db, ref) => {
        await ref.collection("recoveryLocks").doc(resourceId).delete();
        await db.recursiveDelete(db.doc(standIn.path));
      });
    }
  });

  it('when starting the recovery fails, then the modal says "Recovery failed" and why, or the generic text when the answer has none', async () => {
    const starting = /\/v1\/organizations\/[^/]+\/recoveries$/;
    for (const [message, reason] of [
      ["Unexpected error occurred", "Unexpected error occurred"],
      ["", "Something went wrong."],
    ]) {
      await page.route(starting, (route) =>
        route.request().method() === "POST"
          ? route.fulfill({ status: 500, json: { code: 500, message } })
          : route.fallback(),
      );
      try {
        expect((await refusedRecoveryText()).split("\n").filter(Boolean)).toEqual([
          "Recovery failed",
          reason,
        ]);
        await closeDialog(page);
      } finally {
        await page.unroute(starting);
      }
    }
  });

  it("when the message is recovered to its mailbox in a separate folder, then the snackbar says so, the progress follows it to the end and Gmail has the message again under the folder's label", async () => {
    await searchRecover().click();
    await dialogSettled(page);
    expect(await dialog().getByTestId("recovery-error").count()).toBe(0);
    await dialog().getByLabel("Folder name").fill(FOLDER);
    await screenshotModalBothThemes(
      page,
      async () => {
        await searchRecover().click();
        await dialog().getByLabel("Folder name").fill(FOLDER);
      },
      "recovery-modal",
    );
    await dialog().getByRole("button", { name: "Recover", exact: true }).click();
    await expectSnackbar(page, RECOVERY_MESSAGES.started, false);
    // The dialog closes (its exit may still run while the snackbar shows).
    await dialog().waitFor({ state: "detached" });

    expect(await recoveryEnded(page)).toEqual({
      state: "succeeded",
      text: "Recovery finished: 1 item restored",
    });
    await screenshot(page, "recovery-finished");

    const copies = await copiesOfMessage();
    expect(copies).toHaveLength(1);
    expect(copies[0]!.raw.equals(message!.raw)).toBe(true);
    expect(copies[0]!.labels).toContain(FOLDER);

    await progress().getByRole("button", { name: "Dismiss" }).click();
    await progress().waitFor({ state: "detached" });
  });

  it("when the screens were used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
