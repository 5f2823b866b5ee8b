/**
 * Browsing a resource's backups at a point in time (docs/requirements.md#backup-activity), on an
 * organisation of its own with a real backup: from the resource's page to the browse screen, the mailbox by
 * label, the drive by folder, a date the backups held nothing at, and a selection recovered at that day's
 * view, to its end.
 */
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { searchDay } from "../support/backup-runs";
import { countIs, settledWidth } from "./support/browser";
import { useFreshOrganizationPage } from "./support/fresh-organization";
import { screenshotBothThemes } from "./support/onboarding";
import { recoveryEnded } from "./support/recovery-flow";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(240_000);

const fresh = useFreshOrganizationPage(3);
const page = () => fresh().page;
const setup = () => fresh().setup;

describe("browsing backups at a point in time", () => {
  it("when Browse backups is chosen on the resource's page, then the mailbox shows by label as backed up now", async () => {
    await page().goto(`/resources/${setup().resource.resourceId}`);
    await page().getByRole("link", { name: "Browse backups at a date" }).click();
    await page().waitForURL((url) => url.pathname === `/resources/${setup().resource.resourceId}/browse`);
    await page().getByRole("heading", { level: 1, name: "Browse backups" }).waitFor();
    expect(await page().getByTestId("browse-as-of").innerText()).toBe("As backed up now");
    const labels = page().getByTestId("browse-label");
    await labels.first().waitFor();
    expect((await labels.allInnerTexts()).slice(0, 3)).toEqual(["All mail", "Inbox", "Starred"]);
    await countIs(page().getByTestId("search-result"), 3);
    await page().getByTestId("browse-label").filter({ hasText: "Sent" }).click();
    await countIs(page().getByTestId("search-result"), 0);
    await page().getByTestId("browse-label").filter({ hasText: "Inbox" }).click();
    await countIs(page().getByTestId("search-result"), 3);
    await screenshotBothThemes(page(), "browse-mail");
  });

  it("when Drive is chosen, then the top shows the drive's root and the root its files", async () => {
    await page().getByRole("button", { name: "Drive", exact: true }).click();
    await page().getByTestId("browse-folder").filter({ hasText: "My Drive" }).click();
    await countIs(page().getByTestId("search-result"), 1);
    expect(await page().getByTestId("search-result").innerText()).toContain("budget.txt");
    expect(await page().getByTestId("browse-crumb").allInnerTexts()).toEqual(["All drives", "/ My Drive"]);
    await screenshotBothThemes(page(), "browse-drive");
    await page().getByTestId("browse-crumb").first().click();
    await page().getByTestId("browse-folder").filter({ hasText: "My Drive" }).waitFor();
  });

  it("when the browse is 1440 or 390 px wide, then nothing scrolls sideways", async () => {
    for (const width of [1440, 390]) {
      await page().getByTestId("snapshot-browser").waitFor();
      expect(await settledWidth(page(), width)).toBeLessThanOrEqual(width);
    }
    await page().setViewportSize({ width: 1440, height: 900 });
  });

  it("when a date is typed, then a wrong one is refused and one before the first backup shows nothing", async () => {
    await page().getByRole("button", { name: "Gmail", exact: true }).click();
    const date = page().getByLabel("Date");
    await date.fill("31-31-2026");
    await page().getByRole("button", { name: "Show" }).click();
    expect(await page().locator("#browse-date-helper-text").innerText()).toBe("Invalid date format");
    await date.fill(searchDay(-1));
    await page().getByRole("button", { name: "Show" }).click();
    await page()
      .getByTestId("browse-as-of")
      .filter({ hasText: "As the backups held it at the end of" })
      .waitFor();
    await countIs(page().getByTestId("search-result"), 0);
  });

  it("when messages held at today's end are selected and recovered, then the recovery runs to its end", async () => {
    await page().getByLabel("Date").fill(searchDay(0));
    await page().getByRole("button", { name: "Show" }).click();
    await countIs(page().getByTestId("search-result"), 3);
    await page().getByTestId("search-result").first().getByRole("checkbox").check();
    await page().getByTestId("search-result").nth(1).getByRole("checkbox").check();
    await page().getByRole("button", { name: "Recover", exact: true }).click();
    const dialog = page().getByRole("dialog", { name: "Recover data" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain("2 selected items");
    expect(await dialog.innerText()).toContain("As the backups held them at the end of");
    await dialog.getByLabel("Folder name").fill("From_the_browse");
    await dialog.getByRole("button", { name: "Recover", exact: true }).click();
    await expectSnackbar(page(), RECOVERY_MESSAGES.started, false);
    const ended = await recoveryEnded(page());
    expect(ended.state).toBe("succeeded");
    expect(ended.text).toContain("2");
    expect(fresh().errors).toEqual([]);
  });
});
