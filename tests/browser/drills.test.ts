/**
 * Restore Drills in Chromium, on an organisation of the test's own (three messages and a file for its
 * user, backed up once; its super admin signed in through Google's popup): the drill restores into the
 * sandbox's mailbox, and Gmail keeps one copy per Message-ID per mailbox, so the sandbox is the admin's
 * own empty mailbox, which holds none of the sampled messages. The admin enables scheduled drills with
 * that sandbox, saves, runs a drill now, and the history shows the run passed with its whole sample (the
 * three messages and the file) matched, 100 %.
 */
import type { Page } from "playwright-core";
import { DRILL_MESSAGES } from "@alpvault/contracts/drills";
import {
  closeFreshOrganizationPage,
  freshOrganizationPage,
  type FreshOrganizationPage,
} from "./support/fresh-organization";
import { screenshot } from "./support/browser";
import { screenshotBothThemes } from "./support/onboarding";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(240_000);

const MESSAGES = 3;
/** Every backed-up item of the user is drawn: the messages and the file. */
const SAMPLE = MESSAGES + 1;
let fresh: FreshOrganizationPage;
let page: Page;

beforeAll(async () => {
  fresh = await freshOrganizationPage(MESSAGES);
  page = fresh.page;
});

afterAll(() => closeFreshOrganizationPage(fresh));

const runs = () => page.getByTestId("drill-run");

describe("restore drills", () => {
  it("when the admin opens Restore Drills, then the settings are off and the history is empty", async () => {
    await page.goto("/restore-drills");
    await page.getByRole("heading", { level: 1, name: "Restore Drills" }).waitFor();
    await page.getByText("No drill has run yet.", { exact: true }).waitFor();
    expect(await page.getByLabel("Run drills on a schedule").isChecked()).toBe(false);
    expect(await page.getByRole("button", { name: "Run a drill now" }).isDisabled()).toBe(true);
  });

  it("when drills are enabled without a sandbox, then the form asks for one and nothing is saved", async () => {
    await page.getByLabel("Run drills on a schedule").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.locator("#drill-sandbox-helper-text").getByText(DRILL_MESSAGES.sandboxRequired).waitFor();
    expect(await page.getByRole("button", { name: "Run a drill now" }).isDisabled()).toBe(true);
  });

  it("when a sandbox is chosen, saved and a drill run now, then the history shows it passed with its whole sample matched", async () => {
    const admin = fresh.setup.workspace.admin;
    await page.getByLabel("Sandbox mailbox").click();
    await page
      .getByRole("listbox")
      .getByRole("option", { name: new RegExp(`\\(${admin}\\)$`) })
      .click();
    await page.getByLabel("Items per resource and service").fill("5");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expectSnackbar(page, DRILL_MESSAGES.saved, false);
    await page.getByText(/^Next scheduled drill: /).waitFor();

    const runNow = page.getByRole("button", { name: "Run a drill now" });
    // Enabled once the saved settings name the sandbox (a click waits for that).
    await runNow.click();
    await expectSnackbar(page, DRILL_MESSAGES.started, false);
    await runs().first().waitFor();
    // The history refreshes itself while the drill runs.
    await page.waitForFunction(
      () => /Passed|Failed/.test(document.querySelector("[data-testid=drill-run]")?.textContent ?? ""),
      undefined,
      { timeout: 180_000 },
    );
    expect(await runs().count()).toBe(1);
    const cells = await runs().first().locator("td").allInnerTexts();
    expect(cells.slice(1)).toEqual([
      String(SAMPLE),
      `${SAMPLE} (100 %)`,
      "0",
      expect.stringMatching(/^\d+ s$/),
      "Passed",
      "Show items",
    ]);
    expect(await page.getByRole("list", { name: "Items that did not match or failed" }).count()).toBe(0);
    await screenshotBothThemes(page, "restore-drills-passed");

    // The run opens with every item it sampled, each matched.
    await runs()
      .first()
      .getByRole("button", { name: /^Show items of the drill of / })
      .click();
    const dialog = page.getByRole("dialog", { name: /^Drill of / });
    await dialog.getByTestId("drill-item").first().waitFor();
    expect(await dialog.getByTestId("drill-item").count()).toBe(SAMPLE);
    expect(await dialog.locator('[data-testid="drill-item"]:not([data-outcome="matched"])').count()).toBe(0);
    expect(await dialog.getByTestId("drill-run-summary").innerText()).toBe(
      `${SAMPLE} items sampled: ${SAMPLE} matched, 0 mismatched, 0 failed, 0 skipped`,
    );
    await screenshot(page, "restore-drills-run");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(fresh.errors).toEqual([]);
  });
});
