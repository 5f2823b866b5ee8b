/**
 * A recovery that meets a damaged backup, in Chromium, on an organisation of the test's own (three
 * messages and a file, backed up once; its super admin signed in through Google's popup), so the test may
 * damage its backups: one message's stored chunk has a flipped byte; the whole mailbox, chosen in Search
 * Backups, is recovered into a separate folder; the progress card ends failed, counts the message that
 * could not be restored, names it with "integrity check failed", and its report (CSV) gives every
 * message's outcome.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { RECOVERY_ITEM_REASONS, RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import type { StoredItem } from "../support/backup-runs";
import { damageItem } from "../support/damage";
import { screenshot } from "./support/browser";
import {
  backedUpItems,
  closeFreshOrganizationPage,
  freshOrganizationPage,
  subjectOf as subjectOfItem,
  type FreshOrganizationPage,
} from "./support/fresh-organization";
import { dialogSettled, recoveryDialog, recoveryEnded, recoveryProgress } from "./support/recovery-flow";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(240_000);

const MESSAGES = 3;
let fresh: FreshOrganizationPage;
let page: Page;

beforeAll(async () => {
  fresh = await freshOrganizationPage(MESSAGES);
  page = fresh.page;
});

afterAll(() => closeFreshOrganizationPage(fresh));

const subjectOf = (item: StoredItem) => subjectOfItem(fresh.setup, item);

describe("recovery of a damaged backup", () => {
  it("when a message's chunk is damaged and the mailbox is recovered, then the progress card fails naming that message with integrity check failed, and the report gives every outcome", async () => {
    const items = await backedUpItems(fresh.setup);
    expect(items).toHaveLength(MESSAGES);
    const damaged = items[1]!;
    await damageItem(fresh.setup.organization, damaged);

    await page.goto("/search");
    await page.getByLabel("Resource name or email").fill(fresh.setup.workspace.user);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText(`${MESSAGES} results`, { exact: true }).waitFor();
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByText(`${MESSAGES} selected`, { exact: true }).waitFor();
    await page.getByTestId("search-screen").getByRole("button", { name: "Recover" }).click();
    await dialogSettled(page);
    await recoveryDialog(page).getByLabel("Folder name").fill("Integrity");
    await recoveryDialog(page).getByRole("button", { name: "Recover", exact: true }).click();
    await expectSnackbar(page, RECOVERY_MESSAGES.started, false);

    expect(await recoveryEnded(page)).toEqual({
      state: "failed",
      text: `Recovery failed: 1 of ${MESSAGES} items could not be recovered`,
    });
    const card = recoveryProgress(page);
    const problems = card.getByTestId("recovery-problems");
    expect(await problems.getByText("1 could not be restored", { exact: true }).count()).toBe(1);
    expect(await card.getByTestId("recovery-problem").allInnerTexts()).toEqual([
      `${subjectOf(damaged)}: ${RECOVERY_ITEM_REASONS.integrity}`,
    ]);
    await screenshot(page, "recovery-damaged-item");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      problems.getByRole("button", { name: "Download report" }).click(),
    ]);
    const rows = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\r\n");
    expect(rows[0]).toBe("item,name,outcome,reason");
    expect(rows.slice(1).sort()).toEqual(
      items
        .map((item) =>
          item.itemKey === damaged.itemKey
            ? `${item.itemKey},${subjectOf(item)},failed,${RECOVERY_ITEM_REASONS.integrity}`
            : `${item.itemKey},${subjectOf(item)},restored,`,
        )
        .sort(),
    );
    expect(fresh.errors).toEqual([]);
  });
});
