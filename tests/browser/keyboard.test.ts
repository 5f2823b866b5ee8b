/**
 * The console by keyboard alone: onboarding (step 1 to the region), creating a backup policy, searching
 * a backup and recovering what it found. Each control is reached with Tab (or Shift+Tab), shows where the
 * focus is (`:focus-visible`), and is worked with Enter, Space or the arrow keys: no mouse click on our
 * pages. (Google's own sign-in popup is Google's page, not ours.)
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { newWorkspace, setAccount } from "../support/organizations";
import { collectPageErrors, launchBrowser, newContext } from "./support/browser";
import { backedUpItems, subjectOf, useFreshOrganizationPage } from "./support/fresh-organization";
import { installApp, signInThroughPopup, skipResourcesWelcome, stepCounter } from "./support/onboarding";
import { recoveryEnded } from "./support/recovery-flow";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(240_000);

/** The most presses of Tab a control may need from where the focus is. */
const MOST_TABS = 80;

/** Whether the focus is on `target` or inside it, and shown there. */
async function focusedOn(target: Locator): Promise<boolean> {
  return target.evaluate(
    (element) =>
      document.activeElement !== null &&
      (element === document.activeElement || element.contains(document.activeElement)) &&
      document.activeElement.matches(":focus-visible"),
  );
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails when it is not reached. */
async function tabTo(page: Page, target: Locator, key: "Tab" | "Shift+Tab" = "Tab"): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses <= MOST_TABS; presses++) {
    if (await focusedOn(target)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${String(target)} is not reached with ${MOST_TABS} presses of ${key}`);
}

/** Reaches `target` with Tab and presses `key` on it. */
async function press(page: Page, target: Locator, key = "Enter"): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/**
 * Chooses a radio button as a keyboard does: Tab reaches its group (one stop), then Space takes the
 * focused radio or the arrow keys move the choice to it.
 */
async function chooseRadio(page: Page, target: Locator): Promise<void> {
  const name = await target.getAttribute("name");
  const inGroup = () =>
    page.evaluate(
      (group) =>
        document.activeElement?.matches(`input[type="radio"][name="${group}"]:focus-visible`) ?? false,
      name,
    );
  for (let presses = 0; !(await inGroup()); presses++) {
    if (presses === MOST_TABS) throw new Error(`The radio group ${name} is not reached with Tab`);
    await page.keyboard.press("Tab");
  }
  if (await focusedOn(target)) await page.keyboard.press("Space");
  for (let moves = 0; moves < 10 && !(await target.isChecked()); moves++)
    await page.keyboard.press("ArrowDown");
  expect(await target.isChecked()).toBe(true);
}

/** Reaches a text field with Tab and types into it. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

describe("onboarding by keyboard", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
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

  it("when a new admin installs the app, then Verify installation, the region, its confirmation and Confirm region are all worked by keyboard, to /resources", async () => {
    const workspace = await newWorkspace({ installed: false });
    await page.goto("/sign-up");
    await signInThroughPopup(context, page, "Sign up with Google", {
      email: workspace.admin,
      displayName: "Ada Admin",
    });
    await page.waitForURL((url) => url.pathname === "/onboarding/step-1");
    await installApp(workspace.domain);
    await page.bringToFront();

    await press(page, page.getByRole("button", { name: "Verify installation" }));
    await page.waitForURL((url) => url.pathname === "/onboarding/step-3");
    await page.getByRole("heading", { level: 1, name: "Choose your backup region" }).waitFor();
    expect(await stepCounter(page)).toBe("Step 3 / 3");

    // A radio group is one stop for Tab; the arrow keys move the choice within it.
    await press(page, page.getByRole("radio").first(), "Space");
    const chosen = () =>
      page
        .getByRole("radio")
        .evaluateAll((radios) =>
          radios
            .filter((radio) => (radio as HTMLInputElement).checked)
            .map((radio) => (radio as HTMLInputElement).value),
        );
    expect(await chosen()).toEqual(["ch"]);
    await page.keyboard.press("ArrowDown");
    expect(await chosen()).toEqual(["eu"]);
    await page.keyboard.press("ArrowUp");
    expect(await chosen()).toEqual(["ch"]);

    await press(
      page,
      page.getByRole("checkbox", {
        name: "I understand that the backup region cannot be changed once confirmed.",
      }),
      "Space",
    );
    await press(page, page.getByRole("button", { name: "Confirm region" }));
    await page.waitForURL((url) => url.pathname === "/resources", { timeout: 60_000 });
    await page.getByRole("heading", { level: 1, name: "Resources" }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe("policy, search and recovery by keyboard", () => {
  // Policies are made on paid plans.
  const fresh = useFreshOrganizationPage(3, (made) =>
    setAccount(made.setup.organization, { planId: "geneva", seats: 5 }),
  );
  const page = () => fresh().page;

  it("when a policy is made by keyboard, then its name, data types, frequency, schedule and retention are set and it is listed", async () => {
    await page().goto("/policies");
    await page().getByRole("heading", { level: 1, name: "Backup Policies" }).waitFor();
    await page().waitForFunction(
      () => document.querySelector("[data-testid=policies-table]")?.getAttribute("aria-busy") === "false",
    );
    await press(page(), page().getByRole("button", { name: "New policy" }));
    const dialog = page().getByRole("dialog", { name: /backup policy/ });
    await dialog.waitFor();

    await typeInto(page(), dialog.getByLabel("Policy name"), "Keyboard weekdays");
    await press(page(), dialog.getByRole("checkbox", { name: "Emails" }), "Space");
    await press(page(), dialog.getByRole("checkbox", { name: "Drive" }), "Space");
    await chooseRadio(page(), dialog.getByRole("radio", { name: /^3 backups per day/ }));
    await chooseRadio(page(), dialog.getByRole("radio", { name: "Chosen days" }));
    await press(page(), dialog.getByRole("checkbox", { name: "Monday" }), "Space");
    await press(page(), dialog.getByRole("checkbox", { name: "Thursday" }), "Space");
    // A select opens with the arrow keys, moves with them and takes the option with Enter.
    await press(page(), dialog.getByRole("combobox", { name: "Retention" }), "ArrowDown");
    const option = page().getByRole("option", { name: "90 days" });
    await option.waitFor();
    const optionFocused = () => option.evaluate((element) => element === document.activeElement);
    for (let moves = 0; moves < 10 && !(await optionFocused()); moves++) {
      await page().keyboard.press("ArrowDown");
    }
    await page().keyboard.press("Enter");
    await page().getByRole("listbox").waitFor({ state: "detached" });
    expect(await dialog.getByRole("combobox", { name: "Retention" }).innerText()).toBe("90 days");

    await press(page(), dialog.getByRole("button", { name: "Add policy" }));
    await expectSnackbar(page(), "Policy added", false);
    await dialog.waitFor({ state: "hidden" });
    const row = page()
      .getByTestId("policy-row")
      .filter({ has: page().getByTestId("policy-name").getByText("Keyboard weekdays", { exact: true }) });
    const text = await row.innerText();
    for (const part of ["Emails, Drive", "3 backups per day", "Monday, Thursday", "90 days"])
      expect(text).toContain(part);
  });

  it("when a message is searched, selected and recovered by keyboard, then the recovery runs to its end", async () => {
    const setup = fresh().setup;
    const [item] = await backedUpItems(setup);
    const subject = subjectOf(setup, item!);
    await page().goto("/search");
    await page().getByRole("heading", { level: 1, name: "Search Backups" }).waitFor();

    await typeInto(page(), page().getByLabel("Resource name or email"), setup.workspace.user);
    await typeInto(page(), page().getByLabel("Keyword"), "figures");
    await press(page(), page().getByRole("button", { name: "Search", exact: true }));
    await page().getByText("3 results", { exact: true }).waitFor();

    await press(page(), page().getByRole("checkbox", { name: `Select ${subject}` }), "Space");
    await press(page(), page().getByTestId("search-screen").getByRole("button", { name: "Recover" }));
    const dialog = page().getByRole("dialog", { name: "Recover data" });
    await dialog.waitFor();
    await typeInto(page(), dialog.getByLabel("Folder name"), "Keyboard_recovery");
    await press(page(), dialog.getByRole("button", { name: "Recover", exact: true }));
    await expectSnackbar(page(), RECOVERY_MESSAGES.started, false);
    expect(await recoveryEnded(page())).toMatchObject({ state: "succeeded" });
    expect(fresh().errors).toEqual([]);
  });
});
