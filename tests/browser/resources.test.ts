/**
 * The resources screen (docs/requirements.md#screens-and-navigation) for a freshly onboarded organisation: a new Workspace customer in the
 * Workspace emulator, its admin signed in with Google through the popup, the organisation created in the
 * Swiss region, then `/resources` with its real users, shared drives, analytics and alerts.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import type { AlertsResponse, OrganizationSummary, ResourcesPage } from "@alpvault/contracts/organizations";
import type { IntegrityReport, VerifyRun } from "@alpvault/contracts/integrity";
import { testMessage } from "../../emulators/workspace/src/index";
import { finishedRun, itemsOf, runsOf } from "../support/backup-runs";
import { afterBackgroundWork } from "../support/wait";
import { chunkOf, flipByte } from "../support/damage";
import { appCheckToken, callApi } from "../support/api-client";
import { googleSubOf, withRegionDb } from "../support/organizations";
import { workspaceAdmin } from "../support/workspace";
import { chooseAccountInEmulatorPopup, registerGoogleAccount } from "./support/auth-emulator-popup";
import { collectPageErrors, launchBrowser, newContext, SCREENSHOT_DIR, screenshot } from "./support/browser";
import { closeSnackbar, snackbarOf } from "./support/snackbar";

jest.setTimeout(120_000);

const domain = `res-${randomBytes(4).toString("hex")}.test`;
const people = {
  admin: { email: `admin@${domain}`, givenName: "Ada", familyName: "Admin", isAdmin: true },
  user: { email: `ueli@${domain}`, givenName: "Ueli", familyName: "User" },
  suspended: { email: `former@${domain}`, givenName: "Fritz", familyName: "Former", suspended: true },
};
const SHARED_DRIVES = ["Finance", "Marketing"];
/** The browser storage entries the screen reads (web/src/lib/session-storage.ts, welcome-modal.tsx). */
const ORGANIZATION_ID_KEY = "alpvault:organizationId";
const WELCOME_KEY = "alpvault:resourcesWelcomeDismissed";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let organizationId: string;

/** The signed-in user's Firebase ID token, as the web app keeps it (IndexedDB persistence). */
function storedIdToken(): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const opened = indexedDB.open("firebaseLocalStorageDb");
        opened.onerror = () => reject(opened.error ?? new Error("IndexedDB could not be opened"));
        opened.onsuccess = () => {
          const request = opened.result
            .transaction("firebaseLocalStorage", "readonly")
            .objectStore("firebaseLocalStorage")
            .getAll();
          request.onerror = () => reject(request.error ?? new Error("IndexedDB could not be read"));
          request.onsuccess = () => {
            const entries = request.result as {
              fbase_key: string;
              value?: { stsTokenManager?: { accessToken?: string } };
            }[];
            const user = entries.find((entry) => entry.fbase_key.startsWith("firebase:authUser:"));
            const token = user?.value?.stsTokenManager?.accessToken;
            if (token) resolve(token);
            else reject(new Error("No signed-in user is stored"));
          };
        };
      }),
  );
}

/** Calls the API as the signed-in admin (their own token, a valid App Check token). */
async function asAdmin(apiPath: string, method = "GET", body?: unknown) {
  return callApi(apiPath, {
    idToken: await storedIdToken(),
    appCheck: appCheckToken(),
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { "content-type": "application/json" },
  });
}

async function shoot(name: string): Promise<void> {
  await screenshot(page, name);
}

/** A part of the screen on its own (the alerts panel), saved next to the page screenshots. */
async function shootPart(locator: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await locator.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

const rows = () => page.getByTestId("resource-row");
/** The organisation, for the catalog helpers: it lives in Switzerland's region (they read its database from this). */
const inSwitzerland = () =>
  ({ organizationId, subscriptions: [{ region: { id: "ch" } }] }) as unknown as OrganizationSummary;
const assignButton = () => page.getByRole("button", { name: "Assign backup Policy" });
const snackbar = () => snackbarOf(page);

async function rowNames(): Promise<string[]> {
  return (await page.getByTestId("resource-display-name").allInnerTexts()).map((text) =>
    text.replace(/\s+/g, " ").trim(),
  );
}

/** Waits until the table is idle and shows exactly `count` rows (the list reloads through the API). */
async function waitForRows(count: number): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      document.querySelector("[data-testid=resources-table]")?.getAttribute("aria-busy") === "false" &&
      document.querySelectorAll("[data-testid=resource-row]").length === expected,
    count,
  );
}

/**
 * Waits until the table is idle and lists exactly these display names in this order: a search reaches the
 * API after a pause in typing, so the previous answer may still be shown for a moment.
 */
async function waitForNames(expected: string[]): Promise<void> {
  await page.waitForFunction((names) => {
    if (document.querySelector("[data-testid=resources-table]")?.getAttribute("aria-busy") !== "false")
      return false;
    const shown = Array.from(
      document.querySelectorAll<HTMLElement>("[data-testid=resource-display-name]"),
    ).map((element) => element.innerText.replace(/\s+/g, " ").trim());
    return JSON.stringify(shown) === JSON.stringify(names);
  }, expected);
}

/** Waits until the analytics and the alerts have loaded (this organisation always has an alert). */
async function figuresLoaded(): Promise<void> {
  await page.getByTestId("analytics-protected-value").waitFor();
  await page.getByTestId("alert-item").first().waitFor();
}

/** Waits until an opening dialog or popover has finished fading in, so screenshots show it whole. */
async function settled(selector: string): Promise<void> {
  await page.waitForFunction((css) => {
    const element = document.querySelector(css);
    if (!element) return false;
    const style = getComputedStyle(element);
    return (
      style.opacity === "1" && (style.transform === "none" || style.transform === "matrix(1, 0, 0, 1, 0, 0)")
    );
  }, selector);
}

async function search(text: string): Promise<void> {
  await page.getByRole("searchbox", { name: "Search by name or email" }).fill(text);
}

beforeAll(async () => {
  const created = await workspaceAdmin("POST", "/customers", { domain, installed: true });
  if (created.status !== 200) throw new Error(`Creating ${domain} failed: ${JSON.stringify(created.body)}`);
  for (const person of Object.values(people)) {
    const answer = await workspaceAdmin("POST", "/users", person);
    if (answer.status !== 200)
      throw new Error(`Adding ${person.email} failed: ${JSON.stringify(answer.body)}`);
  }
  for (const name of SHARED_DRIVES) {
    const answer = await workspaceAdmin("POST", `/users/${people.admin.email}/drive/drives`, { name });
    if (answer.status !== 200) throw new Error(`Adding drive ${name} failed: ${JSON.stringify(answer.body)}`);
  }

  browser = await launchBrowser();
  ({ context } = await newContext(browser));
  page = await context.newPage();
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("resources screen", () => {
  it("when the admin of a new Workspace signs in with Google and chooses a region, then the organisation exists with its resources synced", async () => {
    await page.goto("/login");
    await registerGoogleAccount({ email: people.admin.email, displayName: "Ada Admin" });
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      page.getByRole("button", { name: "Sign in with Google" }).click(),
    ]);
    await chooseAccountInEmulatorPopup(popup, { email: people.admin.email, displayName: "Ada Admin" });
    await page.waitForURL((url) => url.pathname !== "/login", { timeout: 30_000 });

    // docs/requirements.md#states-and-flows onboarding's last step (the region choice), made as the signed-in admin.
    const answer = await asAdmin("/organizations", "POST", { regionId: "ch" });
    expect(answer.status).toBe(201);
    organizationId = (answer.body as OrganizationSummary).organizationId;
    expect(organizationId).toMatch(/^[0-9A-Za-z_-]{10}$/);
    // The connecting sequence saves the organisation id locally (docs/requirements.md#states-and-flows); set it in case it has not run.
    await page.evaluate(({ key, id }) => window.localStorage.setItem(key, id), {
      key: ORGANIZATION_ID_KEY,
      id: organizationId,
    });
  });

  it("when the admin opens /resources for the first time, then the welcome modal greets them, and once dismissed it stays dismissed", async () => {
    await page.goto("/resources");
    const modal = page.getByRole("dialog", { name: "Welcome to Alpvault" });
    // The modal waits for the resources list: the first screen of a new organisation, whose requests all
    // meet cold Functions workers at once (beside the other files, the list once took longer than 30 s).
    await modal.waitFor({ timeout: 90_000 });
    await figuresLoaded();
    await settled(".MuiDialog-container");
    await shoot("resources-welcome-light");
    await modal.getByRole("button", { name: "Get started" }).click();
    await modal.waitFor({ state: "hidden" });
    expect(await page.evaluate((key) => window.localStorage.getItem(key), WELCOME_KEY)).toBe("true");

    await page.reload();
    await waitForRows(5);
    expect(await page.getByTestId("welcome-modal").count()).toBe(0);
  }, 150_000);

  it("when the resources load, then users and shared drives are listed with the display rule and the suspended user is marked", async () => {
    await waitForRows(5);
    expect(await rowNames()).toEqual([
      `Ada Admin ${people.admin.email}`,
      "Finance Shared drive",
      `Fritz Former ${people.suspended.email}`,
      "Marketing Shared drive",
      `Ueli User ${people.user.email}`,
    ]);
    const suspendedRow = rows().filter({ hasText: people.suspended.email });
    expect(await suspendedRow.getAttribute("data-status")).toBe("suspended");
    expect(await suspendedRow.getByTestId("resource-status").innerText()).toContain("Suspended");
    expect(
      await rows().filter({ hasText: people.user.email }).getByTestId("resource-status").innerText(),
    ).not.toContain("Suspended");
    // No backups yet: no policy, never backed up, 0 GB.
    const first = rows().first();
    expect(await first.innerText()).toContain("No policy");
    expect(await first.innerText()).toContain("Last: never");
    expect(await first.getByTestId("resource-storage").innerText()).toBe("0.00 GB");
    await figuresLoaded();
    // The API's health is a developer's figure: not on a customer's screen.
    expect(await page.getByTestId("system-status").count()).toBe(0);
    await shoot("resources-list-light");
  });

  it("when the analytics load, then they show the organisation's real figures", async () => {
    await page.getByTestId("analytics-protected-value").waitFor();
    expect(await page.getByTestId("analytics-protected-value").innerText()).toBe("0 of 5");
    expect(await page.getByTestId("analytics-status-value").innerText()).toBe("Unprotected");
    expect(await page.getByTestId("analytics-size").innerText()).toContain("0.00 B");
    expect(await page.getByTestId("analytics-emails").innerText()).toBe("0");
    expect(await page.getByTestId("analytics-files").innerText()).toBe("0");
  });

  it("when the name header is clicked, then the API sorts the list by name in descending order", async () => {
    await page.getByRole("button", { name: "Name", exact: true }).click();
    await page.waitForFunction(
      () =>
        document.querySelector("[data-testid=resource-display-name]")?.textContent?.startsWith("Ueli") ===
        true,
    );
    expect((await rowNames())[4]).toBe(`Ada Admin ${people.admin.email}`);
    await page.getByRole("button", { name: "Name", exact: true }).click();
    await page.waitForFunction(
      () =>
        document.querySelector("[data-testid=resource-display-name]")?.textContent?.startsWith("Ada") ===
        true,
    );
  });

  it("when searching by name or by email, then the list narrows to the matching resources", async () => {
    await search("ueli");
    await waitForNames([`Ueli User ${people.user.email}`]);

    await search(`FORMER@${domain.toUpperCase()}`);
    await waitForNames([`Fritz Former ${people.suspended.email}`]);

    await search("nobody-is-called-like-this");
    await page.getByTestId("resources-empty").waitFor();
    expect(await rows().count()).toBe(0);

    await search("");
    await waitForRows(5);
  });

  it("when the type filter is set to shared drives or email addresses, then only that type is listed", async () => {
    await page.getByRole("button", { name: "Filter" }).click();
    const menu = page.getByTestId("filter-menu");
    await menu.waitFor();
    expect(await menu.innerText()).toContain("Backup policy");
    // The filter offers the organisation's policies: every organisation has its default policy.
    await menu.getByRole("combobox", { name: "Backup policy" }).click();
    // The policies load when the filter first opens.
    await page.getByRole("option", { name: "Default policy" }).waitFor();
    expect(await page.getByRole("option").allInnerTexts()).toEqual(["All policies", "Default policy"]);
    await page.getByRole("option", { name: "Default policy" }).click();
    await page.getByTestId("resources-empty").waitFor();
    await menu.getByRole("combobox", { name: "Backup policy" }).click();
    await page.getByRole("option", { name: "All policies" }).click();
    await waitForRows(5);

    await menu.getByRole("combobox", { name: "Type" }).click();
    await page.getByRole("option", { name: "Shared drive" }).click();
    await waitForNames(["Finance Shared drive", "Marketing Shared drive"]);
    await settled(".MuiPopover-paper");
    await shoot("resources-filter-menu-light");

    await menu.getByRole("combobox", { name: "Type" }).click();
    await page.getByRole("option", { name: "Email address" }).click();
    await waitForRows(3);
    expect((await rowNames()).every((name) => name.includes(`@${domain}`))).toBe(true);

    await menu.getByRole("combobox", { name: "Protection" }).click();
    await page.getByRole("option", { name: "Protected", exact: true }).click();
    await page.getByTestId("resources-empty").waitFor();

    await menu.getByRole("button", { name: "Clear filters" }).click();
    await waitForRows(5);
    // Escape closes the menu from inside it; the cleared list's re-render may have taken focus away.
    await menu.getByRole("combobox", { name: "Type" }).focus();
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
  });

  it("when a row is selected, then Assign backup Policy is enabled and assigns the chosen policy, which protects the resource", async () => {
    expect(await assignButton().isDisabled()).toBe(true);
    const checkbox = page.getByRole("checkbox", { name: "Select Ueli User" });
    await checkbox.check();
    expect(await assignButton().isEnabled()).toBe(true);
    expect(await page.getByTestId("resources-selected").innerText()).toBe("1 selected");
    await assignButton().click();
    const dialog = page.getByRole("dialog", { name: "Assign backup Policy" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain("Choose the backup policy for the selected resource.");
    expect(await dialog.getByRole("combobox", { name: "Backup policy" }).innerText()).toBe("Default policy");
    await settled(".MuiDialog-container");
    await shoot("resources-assign-policy-light");
    await dialog.getByRole("button", { name: "Assign", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    await snackbar().waitFor();
    expect(await snackbar().innerText()).toContain("Default policy assigned to 1 resource");
    await page.waitForFunction(
      (email) =>
        Array.from(document.querySelectorAll("[data-testid=resource-row]")).some(
          (row) => row.textContent?.includes(email) && row.textContent.includes("Default policy"),
        ),
      people.user.email,
    );
    const ueli = rows().filter({ hasText: people.user.email });
    expect(await ueli.getByTestId("resource-status").innerText()).toContain("Protected");
    expect(await ueli.innerText()).not.toContain("not scheduled");
    // The selection is cleared once assigned.
    expect(await checkbox.isChecked()).toBe(false);
    expect(await assignButton().isDisabled()).toBe(true);
    await closeSnackbar(page);
    await page.getByRole("checkbox", { name: "Select all resources on this page" }).check();
    expect(await page.getByTestId("resources-selected").innerText()).toBe("5 selected");
    await page.getByRole("checkbox", { name: "Select all resources on this page" }).uncheck();
    expect(await assignButton().isDisabled()).toBe(true);
  });

  it("when the row menu opens, then Recover all data opens the recovery modal, Backup now needs a policy, and Change backup policy assigns one", async () => {
    await page.getByRole("button", { name: "Actions for Finance" }).click();
    const menu = page.getByRole("menu");
    await menu.waitFor();
    const items = await menu.getByRole("menuitem").allInnerTexts();
    expect(items.map((item) => item.split("\n")[0]?.trim())).toEqual([
      "Recover specific data",
      "Recover all data",
      "Backup now",
      "Change backup policy",
    ]);
    // Finance has no policy yet: Backup now says why it cannot run.
    expect(items[2]).toContain("Assign a backup policy first");
    expect(await menu.getByRole("menuitem", { name: /Backup now/ }).isDisabled()).toBe(true);
    await menu.getByRole("menuitem", { name: /Recover all data/ }).click();
    // A shared drive has Drive data only: no choice of service, and its sharing permissions can come back.
    const recovery = page.getByRole("dialog", { name: "Recover data" });
    await recovery.waitFor();
    expect(await recovery.getByTestId("recovery-subject").innerText()).toMatch(
      /^From Finance\s+Everything backed up of the chosen service$/,
    );
    expect(await recovery.getByRole("radio", { name: "Gmail" }).count()).toBe(0);
    await recovery.getByRole("checkbox", { name: "Recover sharing permissions" }).waitFor();
    await recovery.getByRole("button", { name: "Cancel" }).click();
    await recovery.waitFor({ state: "detached" });

    // The row's Recover does the same as Recover all data.
    const first = rows().first();
    const firstName = (await first.getByTestId("resource-display-name").innerText()).split("\n")[0]!.trim();
    await first.getByRole("button", { name: "Recover", exact: true }).click();
    await recovery.waitFor();
    expect(await recovery.getByTestId("recovery-subject").innerText()).toContain(`From ${firstName}`);
    expect(await recovery.getByTestId("recovery-subject").innerText()).toContain(
      "Everything backed up of the chosen service",
    );
    await recovery.getByRole("button", { name: "Cancel" }).click();
    await recovery.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Actions for Finance" }).click();
    await page.getByRole("menu").getByRole("menuitem", { name: "Change backup policy" }).click();
    const dialog = page.getByRole("dialog", { name: "Assign backup Policy" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain("Choose the backup policy for Finance.");
    await dialog.getByRole("button", { name: "Assign", exact: true }).click();
    await snackbar().waitFor();
    expect(await snackbar().innerText()).toContain("Default policy assigned to 1 resource");
    await page.waitForFunction(
      () => document.querySelector("[data-testid=analytics-protected-value]")?.textContent === "2 of 5",
    );
    // The table reloads on its own, in parallel with the analytics.
    await rows().filter({ hasText: "Finance" }).getByText("Default policy").waitFor();
    await closeSnackbar(page);
  });

  it("when Mark All as Read is clicked, then the unread alerts count goes to 0 in the screen and the API", async () => {
    const panel = page.getByTestId("alerts-panel");
    await panel.getByTestId("alert-item").first().waitFor();
    expect(await panel.getByTestId("alerts-unread").innerText()).toBe("1 unread");
    expect(await panel.innerText()).toContain("5 resources added");
    await shootPart(panel, "resources-alerts-light");

    await panel.getByRole("button", { name: "Mark All as Read" }).click();
    await page.waitForFunction(
      () => document.querySelector("[data-testid=alerts-unread]")?.textContent === "0 unread",
    );
    expect(await panel.getByRole("button", { name: "Mark All as Read" }).isDisabled()).toBe(true);
    const alerts = await asAdmin(`/organizations/${organizationId}/alerts`);
    expect((alerts.body as AlertsResponse).unread).toBe(0);
    await closeSnackbar(page);
  });

  it("when a user joins the Workspace and Sync now is clicked, then the list, analytics and alerts show them", async () => {
    const added = await workspaceAdmin("POST", "/users", {
      email: `nina@${domain}`,
      givenName: "Nina",
      familyName: "Newcomer",
    });
    expect(added.status).toBe(200);
    await page.getByRole("button", { name: "Sync now" }).click();
    await snackbar().waitFor();
    expect(await snackbar().innerText()).toContain("1 added, 0 removed");
    await waitForRows(6);
    expect(await rowNames()).toContain(`Nina Newcomer nina@${domain}`);
    await page.waitForFunction(
      () => document.querySelector("[data-testid=analytics-protected-value]")?.textContent === "2 of 6",
    );
    // The list, analytics and alerts reload in parallel: wait for the alerts' answer too. Three active
    // mailboxes on the free plan's two seats: the sync also says one is beyond the seats.
    await page.waitForFunction(
      () => document.querySelector("[data-testid=alerts-unread]")?.textContent === "2 unread",
    );
    const panel = page.getByTestId("alerts-panel");
    expect(await panel.innerText()).toContain("1 resource added");
    expect(await panel.innerText()).toContain("1 mailbox is beyond your seats.");
    await closeSnackbar(page);
  });

  it("when five rows fit a page, then the API pages the list", async () => {
    await page.getByRole("combobox", { name: "Rows per page" }).selectOption("5");
    await waitForRows(5);
    expect(await page.getByText("1–5 of 6").count()).toBe(1);
    await page.getByRole("button", { name: "Go to next page" }).click();
    await waitForNames([`Ueli User ${people.user.email}`]);
    await page.getByRole("button", { name: "Go to previous page" }).click();
    await waitForRows(5);
  });

  it("when a mailbox's last backup left Gmail unavailable, Drive items skipped and files owned outside the organisation, then its row says so per service and names each reason", async () => {
    // The status a backup of this mailbox records (tests/api/service-status.test.ts runs such backups),
    // written once the backups the policy started have ended, so none of them writes its own over it.
    const resourceId = `user-${await googleSubOf(people.user.email)}`;
    for (const run of await runsOf(inSwitzerland(), resourceId)) {
      await finishedRun(inSwitzerland(), resourceId, run.runId);
    }
    await withRegionDb("region-ch", (db) =>
      db.doc(`organizations/${organizationId}/resources/${resourceId}`).update({
        lastRun: {
          runId: "run-status",
          state: "succeeded",
          failureReason: null,
          finishedAt: new Date().toISOString(),
        },
        services: {
          gmail: {
            state: "unavailable",
            failureReason: null,
            detail: "failedPrecondition",
            skipped: {},
            at: new Date().toISOString(),
          },
          drive: {
            state: "succeeded",
            failureReason: null,
            detail: null,
            skipped: { "not-exportable": 2, cannotDownloadFile: 1 },
            notes: { "external-owner": 4 },
            at: new Date().toISOString(),
          },
        },
      }),
    );
    await page.reload();
    await waitForRows(6);
    const row = rows().filter({ hasText: people.user.email });
    const gmail = row.locator("[data-testid=service-status][data-service=gmail]");
    const drive = row.locator("[data-testid=service-status][data-service=drive][data-state=skipped]");
    const external = row.locator("[data-testid=service-status][data-service=drive][data-state=note]");
    expect(await gmail.innerText()).toBe("Gmail is not enabled for this user");
    expect(await external.innerText()).toBe("Drive: 4 files owned outside the organisation");
    expect(await drive.innerText()).toBe("Drive: 3 items skipped");
    await drive.hover();
    const reasons = page.getByTestId("skip-reasons");
    await reasons.waitFor();
    expect(await reasons.locator("li").allInnerTexts()).toEqual([
      "2 — Google offers no export of these (Forms, Sites, My Maps, Jamboard): their details are kept",
      "1 — Their owner does not allow them to be downloaded",
    ]);
    await shoot("resources-service-status");
    await page.mouse.move(600, 10);
    await reasons.waitFor({ state: "hidden" });
  });

  it("when the theme is dark, then the screen, its welcome modal, filter menu and alerts panel are captured", async () => {
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await page.getByRole("button", { name: "Switch to light theme" }).waitFor();
    await page.mouse.move(600, 10); // away from the toggle, so its tooltip does not cover the screen
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
    expect((r + g + b) / 3).toBeLessThan(128);
    await figuresLoaded();
    await shoot("resources-list-dark");
    await shootPart(page.getByTestId("alerts-panel"), "resources-alerts-dark");

    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByTestId("filter-menu").waitFor();
    await settled(".MuiPopover-paper");
    await shoot("resources-filter-menu-dark");
    await page.keyboard.press("Escape");
    await page.getByTestId("filter-menu").waitFor({ state: "hidden" });

    await page.evaluate((key) => window.localStorage.removeItem(key), WELCOME_KEY);
    await page.reload();
    const modal = page.getByRole("dialog", { name: "Welcome to Alpvault" });
    await modal.waitFor();
    await figuresLoaded();
    await settled(".MuiDialog-container");
    await shoot("resources-welcome-dark");
    await modal.getByRole("button", { name: "Get started" }).click();
    await modal.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Switch to light theme" }).click();
  });

  it("when the resources call fails, then its message is shown and the screen keeps working", async () => {
    const resourcesList = (url: URL) => /\/v1\/organizations\/[^/]+\/resources$/.test(url.pathname);
    await page.route(resourcesList, (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ code: 503, message: "Resources are resting for this test" }),
      }),
    );
    await page.reload();
    const alert = page.getByTestId("resources-error");
    await alert.waitFor();
    expect(await alert.innerText()).toContain("Resources are resting for this test");
    await page.unroute(resourcesList);
    await alert.getByRole("button", { name: "Try again" }).click();
    await alert.waitFor({ state: "hidden" });
    await waitForRows(6);
  });

  it("when a verification finds a damaged message, then its row shows when it was verified and the damage with the item's name", async () => {
    const subject = `Integrity check ${randomBytes(3).toString("hex")}`;
    const added = await workspaceAdmin("POST", `/users/${people.user.email}/gmail/messages`, {
      raw: testMessage({
        subject,
        to: people.user.email,
        text: "A message whose backup gets damaged. ".repeat(50),
      }).toString("base64"),
      encoding: "base64",
    });
    expect(added.status).toBe(200);
    const listed = await asAdmin(`/organizations/${organizationId}/resources?pageSize=100`);
    const resource = (listed.body as ResourcesPage).resources.find(
      (entry) => entry.email === people.user.email,
    )!;
    expect(resource.lastVerifiedAt).toBeNull();
    await page.reload();
    const row = rows().filter({ hasText: people.user.email });
    expect(await row.getByTestId("last-verified").innerText()).toBe("Last verified: Never");

    // A backup holding the new message (the default policy's assignment starts one), then one byte of the
    // message's stored chunk flipped. The earlier tests' backups of this mailbox end first: an assignment
    // takes over a run still under way, which may have listed the mailbox before the message came.
    const organization = inSwitzerland();
    const earlier = await runsOf(organization, resource.resourceId);
    for (const run of earlier) await finishedRun(organization, resource.resourceId, run.runId);
    const assigned = await asAdmin(`/organizations/${organizationId}/policies/default/assign`, "POST", {
      resourceIds: [resource.resourceId],
    });
    expect(assigned.status).toBe(200);
    const known = new Set(earlier.map((run) => run.runId));
    const [run] = (await runsOf(organization, resource.resourceId)).filter((each) => !known.has(each.runId));
    expect((await finishedRun(organization, resource.resourceId, run!.runId)).state).toBe("succeeded");
    const messageId = (added.body as { id: string }).id;
    const message = (await itemsOf(organization, resource.resourceId)).find(
      (item) => item.kind === "gmail-message" && item.sourceId === messageId,
    )!;
    await flipByte(await chunkOf({ call: asAdmin as never, organization, resource }, message));

    const started = await asAdmin(`/organizations/${organizationId}/integrity/verify`, "POST", {
      resourceId: resource.resourceId,
    });
    expect(started.status).toBe(202);
    const runId = (started.body as VerifyRun).runId;
    await afterBackgroundWork(
      "The verification",
      async () =>
        ((await asAdmin(`/organizations/${organizationId}/integrity`)).body as IntegrityReport).runs.find(
          (entry) => entry.runId === runId,
        )?.state,
      (state) => state === "succeeded" || state === "failed",
    );

    await page.reload();
    const chip = row.getByTestId("integrity-status");
    await chip.waitFor();
    expect(await chip.innerText()).toBe("Integrity: 1 damaged item");
    expect(await row.getByTestId("last-verified").innerText()).toMatch(/^Last verified: (?!Never)/);
    await chip.hover();
    const tooltip = page.getByTestId("damaged-items");
    await tooltip.waitFor();
    expect(await tooltip.innerText()).toContain(`${subject} — will be fetched again by the next backup`);
    await shoot("resources-integrity-damaged");
    await shootPart(row, "resources-integrity-damaged-row");
  }, 240_000);

  it("when the screen was used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
