/**
 * Exports from Search Backups in Chromium, on an organisation of the test's own (four messages and a file,
 * backed up once; its super admin signed in through Google's popup), so the test may damage its backups:
 * - Export all → MBOX says "Export started", the job appears in the Exports card, its progress reaches
 *   Ready with every message exported, and Download (a signed link to the file in the bucket) saves an
 *   MBOX holding each backed-up message byte for byte.
 * - With one message's stored chunk damaged, exporting chosen messages as .eml files finishes without it:
 *   the job names it with "integrity check failed", its report (CSV) lists it, and the ZIP holds the
 *   good message only, with a report entry naming the damaged one.
 */
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import type { Download, Locator, Page } from "playwright-core";
import { EXPORT_ITEM_REASONS, EXPORT_MESSAGES } from "@alpvault/contracts/exports";
import { unzip } from "../../emulators/workspace/src/index";
import { EXPORT_REPORT_NAME } from "../../functions/src/export/service";
import type { StoredItem } from "../support/backup-runs";
import { damageItem } from "../support/damage";
import { readMbox } from "../support/mbox-reader";
import { screenshot } from "./support/browser";
import {
  backedUpItems,
  closeFreshOrganizationPage,
  freshOrganizationPage,
  subjectOf as subjectOfItem,
  type FreshOrganizationPage,
} from "./support/fresh-organization";
import { screenshotBothThemes } from "./support/onboarding";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(240_000);

const MESSAGES = 4;
let fresh: FreshOrganizationPage;
let page: Page;

beforeAll(async () => {
  fresh = await freshOrganizationPage(MESSAGES);
  page = fresh.page;
});

afterAll(() => closeFreshOrganizationPage(fresh));

const subjectOf = (item: StoredItem) => subjectOfItem(fresh.setup, item);

const jobs = () => page.getByTestId("export-job");

/** Searches the user's mailbox on Search Backups and waits for its messages. */
async function searchMailbox(): Promise<void> {
  await page.goto("/search");
  await page.getByLabel("Resource name or email").fill(fresh.setup.workspace.user);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText(`${MESSAGES} results`, { exact: true }).waitFor();
}

/** Export all/selected, then the format in the Gmail menu; the snackbar says the job started. */
async function exportAs(button: "Export all" | "Export selected", format: string): Promise<void> {
  await page.getByRole("button", { name: button }).click();
  await page.getByRole("menu").getByRole("menuitem", { name: format }).click();
  await expectSnackbar(page, EXPORT_MESSAGES.started, false);
}

/** Waits until the newest job (the list's first) is Ready and returns it. */
async function newestJobReady(count: number): Promise<Locator> {
  await page.waitForFunction(
    (expected) => {
      const rows = document.querySelectorAll("[data-testid=export-job]");
      return rows.length === expected && rows[0]?.getAttribute("data-state") === "succeeded";
    },
    count,
    { timeout: 180_000 },
  );
  return jobs().first();
}

/** Clicks a button that makes the browser download a file and returns the download. */
async function downloadBy(button: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  expect(await download.failure()).toBeNull();
  return download;
}

describe("exports from Search Backups", () => {
  it("when the mailbox is exported as MBOX, then the job's progress reaches Ready and Download saves an MBOX with every backed-up message", async () => {
    await searchMailbox();
    await page.getByTestId("exports-empty").waitFor();
    await page.getByRole("button", { name: "Export all" }).click();
    const menu = page.getByRole("menu");
    expect(await menu.getByRole("menuitem").allInnerTexts()).toEqual(["MBOX (one file)", ".eml files (ZIP)"]);
    await screenshot(page, "search-export-formats");
    await menu.getByRole("menuitem", { name: "MBOX (one file)" }).click();
    await expectSnackbar(page, EXPORT_MESSAGES.started, false);
    await jobs().first().waitFor();
    expect(await jobs().first().getByTestId("export-title").innerText()).toBe(
      `${fresh.setup.workspace.user} · MBOX`,
    );

    const job = await newestJobReady(1);
    expect(await job.getByTestId("export-state").innerText()).toBe("Ready");
    expect(await job.getByTestId("export-progress").innerText()).toMatch(
      new RegExp(`^${MESSAGES} items exported · \\d+\\.\\d\\d KB$`),
    );
    expect(await job.getByTestId("export-problems").count()).toBe(0);
    await screenshotBothThemes(page, "search-export-ready");

    const download = await downloadBy(job.getByRole("button", { name: /^Download .+\.mbox$/ }));
    expect(download.suggestedFilename()).toMatch(/\.mbox$/);
    const messages: Buffer[] = [];
    for await (const message of readMbox(Readable.from([readFileSync(await download.path())]))) {
      messages.push(message);
    }
    const raws = [...fresh.setup.raws.values()];
    expect(raws).toHaveLength(MESSAGES);
    expect(messages).toHaveLength(MESSAGES);
    for (const raw of raws) expect(messages.some((message) => message.equals(raw))).toBe(true);
  });

  it("when chosen messages are exported as .eml files and one is damaged, then the job names it with integrity check failed, its report lists it and the ZIP holds the good one", async () => {
    const [damaged, good] = await backedUpItems(fresh.setup);
    await damageItem(fresh.setup.organization, damaged!);

    await searchMailbox();
    await page.getByRole("checkbox", { name: `Select ${subjectOf(damaged!)}` }).check();
    await page.getByRole("checkbox", { name: `Select ${subjectOf(good!)}` }).check();
    await page.getByText("2 selected", { exact: true }).waitFor();
    await exportAs("Export selected", ".eml files (ZIP)");

    const job = await newestJobReady(2);
    expect(await job.getByTestId("export-title").innerText()).toBe(
      `${fresh.setup.workspace.user} · .eml files (ZIP)`,
    );
    expect(await job.getByTestId("export-progress").innerText()).toMatch(/^1 item exported · /);
    const problems = job.getByTestId("export-problems");
    expect(await problems.getByText("1 item left out", { exact: true }).count()).toBe(1);
    expect(await job.getByTestId("export-problem").allInnerTexts()).toEqual([
      `${subjectOf(damaged!)}: ${EXPORT_ITEM_REASONS.integrity}`,
    ]);
    await screenshotBothThemes(page, "search-export-damaged");

    const report = await downloadBy(problems.getByRole("button", { name: "Download report" }));
    expect(report.suggestedFilename()).toMatch(/^export-.+\.csv$/);
    const rows = readFileSync(await report.path(), "utf8")
      .trim()
      .split("\r\n");
    expect(rows[0]).toBe("item,name,reason");
    expect(rows.slice(1)).toEqual([
      `${damaged!.itemKey},${subjectOf(damaged!)},${EXPORT_ITEM_REASONS.integrity}`,
    ]);

    const archive = await downloadBy(job.getByRole("button", { name: /^Download .+\.zip$/ }));
    const entries = unzip(readFileSync(await archive.path()));
    const emls = [...entries.keys()].filter((name) => name.endsWith(".eml"));
    expect(emls).toHaveLength(1);
    expect(entries.get(emls[0]!)!.equals(fresh.setup.raws.get(good!.sourceId)!)).toBe(true);
    expect(entries.get(EXPORT_REPORT_NAME)?.toString("utf8")).toContain(`${damaged!.itemKey},`);

    // Both jobs stay listed, newest first.
    expect(await jobs().evaluateAll((rows) => rows.map((row) => row.getAttribute("data-state")))).toEqual([
      "succeeded",
      "succeeded",
    ]);
    expect(fresh.errors).toEqual([]);
  });
});
