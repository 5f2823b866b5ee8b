/**
 * The backup policies screen (docs/requirements.md#screens-and-navigation, #validation, #who-may-do-what, #errors-and-messages) with the demo organisation: on a paid plan the admin
 * creates a policy (the form shows the required texts), edits it, assigns it to two resources from the
 * resources screen, is refused its deletion while resources use it (409 text), reassigns them through the
 * row menu and deletes it; on the free plan the actions are disabled with the way to upgrade. The demo
 * organisation's plan, resources, policies, queued runs and the audit entries of this file are restored
 * afterwards.
 */
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { POLICY_MESSAGES } from "@alpvault/contracts/policies";
import { setAccount, withRegionDb } from "../support/organizations";
import { screenshot } from "./support/browser";
import { onboardDemoOrganization, screenshotBothThemes } from "./support/onboarding";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(120_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let organization: OrganizationSummary;
let savedAccount: Parameters<typeof setAccount>[1] | undefined;
const startedAt = new Date().toISOString();
const assignedIds: string[] = [];

function organizationDoc<T>(body: (doc: FirebaseFirestore.DocumentReference) => Promise<T>): Promise<T> {
  return withRegionDb(`region-${organization.subscriptions[0]?.region.id ?? "ch"}`, (db) =>
    body(db.collection("organizations").doc(organization.organizationId)),
  );
}

/** Puts back what this file changed in the demo organisation (other browser files run after it). */
async function restoreDemoOrganization(): Promise<void> {
  await organizationDoc(async (doc) => {
    const db = doc.firestore;
    const batch = db.batch();
    for (const resourceId of assignedIds) {
      batch.update(doc.collection("resources").doc(resourceId), {
        policyId: null,
        policyName: null,
        protected: false,
        nextBackupAt: null,
      });
    }
    const policies = await doc.collection("policies").get();
    for (const policy of policies.docs) {
      if (policy.id !== "default" && String(policy.get("createdAt")) >= startedAt) batch.delete(policy.ref);
    }
    const runs = await doc.collection("backupRuns").where("requestedAt", ">=", startedAt).get();
    for (const run of runs.docs) batch.delete(run.ref);
    const entries = await doc.collection("auditLogs").where("date", ">=", startedAt).get();
    for (const entry of entries.docs) {
      const operation = String(entry.get("operation"));
      if (operation.startsWith("policy.") || operation === "resources.policy-updated")
        batch.delete(entry.ref);
    }
    await batch.commit();
  });
  if (savedAccount) await setAccount(organization, savedAccount);
}

beforeAll(async () => {
  organization = await onboardDemoOrganization();
  savedAccount = await organizationDoc(
    async (doc) => (await doc.get()).get("account") as Parameters<typeof setAccount>[1] | undefined,
  );
  await setAccount(organization, { planId: "geneva", seats: 10 });
  ({ browser, context, page, errors } = await signedInDemoPage());
});

afterAll(() => closeDemoPage({ browser, context }, organization ? restoreDemoOrganization : undefined));

const policyRow = (name: string) =>
  page
    .getByTestId("policy-row")
    .filter({ has: page.getByTestId("policy-name").getByText(name, { exact: true }) });
const dialog = () => page.getByRole("dialog", { name: /backup policy/ });

/** Waits until an opening dialog has finished fading in, so screenshots show it whole. */
async function settled(): Promise<void> {
  await page.waitForFunction(() => {
    const element = document.querySelector(".MuiDialog-container");
    if (!element) return false;
    const style = getComputedStyle(element);
    return style.opacity === "1";
  });
}

async function openPolicies(): Promise<void> {
  await page.goto("/policies");
  await page.getByRole("heading", { level: 1, name: "Backup Policies" }).waitFor();
  await policyRow("Default policy").waitFor();
  await page.waitForFunction(
    () => document.querySelector("[data-testid=policies-table]")?.getAttribute("aria-busy") === "false",
  );
}

async function waitForResourcesIdle(): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector("[data-testid=resources-table]")?.getAttribute("aria-busy") === "false" &&
      document.querySelectorAll("[data-testid=resource-row]").length > 0,
  );
}

describe("backup policies on a paid plan", () => {
  it("when the admin opens Backup Policies, then the default policy is listed with its settings", async () => {
    await openPolicies();
    const row = policyRow("Default policy");
    const text = await row.innerText();
    for (const part of ["Default", "Emails, Drive", "1 backup per day", "Every day", "30 days"]) {
      expect(text).toContain(part);
    }
    expect(await row.getByRole("button", { name: "Delete Default policy" }).isDisabled()).toBe(true);
    expect(await page.getByTestId("policies-free-plan").count()).toBe(0);
    await screenshotBothThemes(page, "policies-list");
  });

  it("when the new policy form is sent empty, then it shows the required four texts; coming-soon types and Zürich's data types and frequency are disabled", async () => {
    await page.getByRole("button", { name: "New policy" }).click();
    await dialog().waitFor();
    await dialog().getByRole("button", { name: "Add policy" }).click();
    for (const text of [
      "Please provide a policy name",
      "Please select at least one data type",
      "Please specify a backup frequency",
      "Please specify a backup schedule",
    ]) {
      await dialog().getByText(text, { exact: true }).waitFor();
    }
    for (const type of ["Chats", "Directory"]) {
      expect(
        await dialog()
          .getByRole("checkbox", { name: `${type} (Coming soon)` })
          .isDisabled(),
      ).toBe(true);
    }
    // Geneva: contacts and calendars are Zürich's.
    for (const type of ["Contacts", "Calendars"]) {
      expect(
        await dialog()
          .getByRole("checkbox", { name: `${type} (Needs the Zürich plan)` })
          .isDisabled(),
      ).toBe(true);
    }
    expect(
      await dialog()
        .getByRole("radio", { name: /^24 backups per day/ })
        .isDisabled(),
    ).toBe(true);
    expect(
      await dialog()
        .getByRole("radio", { name: /^3 backups per day/ })
        .isDisabled(),
    ).toBe(false);
    expect(await dialog().innerText()).toContain("Needs the Zürich plan");
    expect(await dialog().getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe("/plans");
    await settled();
    await screenshot(page, "policies-form-errors");
  });

  it("when the form is filled in and sent, then the policy is added and listed", async () => {
    await dialog().getByLabel("Policy name").fill("Finance weekdays");
    await dialog().getByRole("checkbox", { name: "Emails" }).check();
    await dialog().getByRole("checkbox", { name: "Drive" }).check();
    await dialog()
      .getByRole("radio", { name: /^3 backups per day/ })
      .check();
    await dialog().getByRole("radio", { name: "Chosen days" }).check();
    await dialog().getByRole("checkbox", { name: "Monday" }).check();
    await dialog().getByRole("checkbox", { name: "Thursday" }).check();
    await dialog().getByRole("combobox", { name: "Retention" }).click();
    await page.getByRole("option", { name: "90 days" }).click();
    await dialog().locator('input[name="archiving"]').check();
    await settled();
    await screenshot(page, "policies-form-filled");
    await dialog().getByRole("button", { name: "Add policy" }).click();
    await expectSnackbar(page, "Policy added", false);
    await dialog().waitFor({ state: "hidden" });
    const row = policyRow("Finance weekdays");
    await row.waitFor();
    const text = await row.innerText();
    for (const part of [
      "Emails, Drive",
      "3 backups per day",
      "Monday, Thursday",
      "90 days",
      "Archiving on",
    ]) {
      expect(text).toContain(part);
    }
    expect(await row.getByTestId("policy-resources").innerText()).toBe("0");
  });

  it("when the policy is edited, then the change is saved and listed", async () => {
    await policyRow("Finance weekdays").getByRole("button", { name: "Edit Finance weekdays" }).click();
    await dialog().waitFor();
    expect(await dialog().getByLabel("Policy name").inputValue()).toBe("Finance weekdays");
    await dialog().getByLabel("Policy name").fill("Finance team");
    await dialog().getByRole("radio", { name: "Weekdays" }).check();
    await dialog().locator('input[name="archiving"]').uncheck();
    await dialog().getByRole("button", { name: "Save" }).click();
    await expectSnackbar(page, "Policy updated", false);
    await policyRow("Finance team").waitFor();
    expect(await policyRow("Finance team").innerText()).toContain("Weekdays");
    // Archiving is shown either way, not only when it is on.
    expect(await policyRow("Finance team").innerText()).toContain("Archiving off");
    expect(await policyRow("Finance weekdays").count()).toBe(0);
  });

  it("when the policy is assigned to two resources from the resources screen, then they show it, protected", async () => {
    await page.goto("/resources");
    await waitForResourcesIdle();
    const rows = page.getByTestId("resource-row");
    for (const index of [0, 1]) {
      const id = await rows.nth(index).getAttribute("data-resource-id");
      assignedIds.push(id as string);
      await rows.nth(index).getByRole("checkbox").check();
    }
    expect(await page.getByTestId("resources-selected").innerText()).toBe("2 selected");
    await page.getByRole("button", { name: "Assign backup Policy" }).click();
    const assign = page.getByRole("dialog", { name: "Assign backup Policy" });
    await assign.waitFor();
    expect(await assign.innerText()).toContain("Choose the backup policy for the 2 selected resources.");
    await assign.getByRole("combobox", { name: "Backup policy" }).click();
    await page.getByRole("option", { name: "Finance team" }).click();
    await assign.getByRole("button", { name: "Assign", exact: true }).click();
    await expectSnackbar(page, "Finance team assigned to 2 resources; their backups have started", false);
    for (const id of assignedIds) {
      const row = page.locator(`[data-testid=resource-row][data-resource-id="${id}"]`);
      await row.filter({ hasText: "Finance team" }).waitFor();
      expect(await row.getByTestId("resource-status").innerText()).toContain("Protected");
    }
    await screenshot(page, "policies-assigned-resources");
  });

  it("when a policy with resources is deleted, then the required 409 text is shown as an error", async () => {
    await openPolicies();
    expect(await policyRow("Finance team").getByTestId("policy-resources").innerText()).toBe("2");
    await policyRow("Finance team").getByRole("button", { name: "Delete Finance team" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete backup policy" });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Delete the policy "Finance team"?');
    await settled();
    await screenshot(page, "policies-delete-confirm");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expectSnackbar(page, POLICY_MESSAGES.inUse, true);
    expect(await policyRow("Finance team").count()).toBe(1);
  });

  it("when its resources are moved to the default policy through the row menu, then the policy can be deleted", async () => {
    await page.goto("/resources");
    await waitForResourcesIdle();
    for (const id of assignedIds) {
      const row = page.locator(`[data-testid=resource-row][data-resource-id="${id}"]`);
      await row.getByRole("button", { name: /^Actions for / }).click();
      await page.getByRole("menu").getByRole("menuitem", { name: "Change backup policy" }).click();
      const assign = page.getByRole("dialog", { name: "Assign backup Policy" });
      await assign.waitFor();
      expect(await assign.getByRole("combobox", { name: "Backup policy" }).innerText()).toBe("Finance team");
      await assign.getByRole("combobox", { name: "Backup policy" }).click();
      await page.getByRole("option", { name: "Default policy" }).click();
      await assign.getByRole("button", { name: "Assign", exact: true }).click();
      await expectSnackbar(page, "Default policy assigned to 1 resource; its backup has started", false);
      await row.filter({ hasText: "Default policy" }).waitFor();
    }
    await openPolicies();
    await policyRow("Finance team").getByRole("button", { name: "Delete Finance team" }).click();
    await page
      .getByRole("dialog", { name: "Delete backup policy" })
      .getByRole("button", { name: "Delete" })
      .click();
    await expectSnackbar(page, "Policy deleted", false);
    await policyRow("Finance team").waitFor({ state: "detached" });
    expect(await policyRow("Default policy").getByTestId("policy-resources").innerText()).toBe("2");
  });
});

describe("backup policies in the dark theme", () => {
  it("when the theme is dark, then the policy form with its texts and the assign dialog are captured", async () => {
    await openPolicies();
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await page.getByRole("button", { name: "Switch to light theme" }).waitFor();
    await page.mouse.move(0, 0);
    await page.getByRole("tooltip").waitFor({ state: "detached" });
    await page.getByRole("button", { name: "New policy" }).click();
    await dialog().waitFor();
    await dialog().getByRole("button", { name: "Add policy" }).click();
    await dialog().getByText("Please provide a policy name", { exact: true }).waitFor();
    await settled();
    await screenshot(page, "policies-form-errors-dark");
    await dialog().getByRole("button", { name: "Cancel" }).click();
    await dialog().waitFor({ state: "hidden" });

    await page.goto("/resources");
    await waitForResourcesIdle();
    await page
      .getByTestId("resource-row")
      .first()
      .getByRole("button", { name: /^Actions for / })
      .click();
    await page.getByRole("menu").getByRole("menuitem", { name: "Change backup policy" }).click();
    const assign = page.getByRole("dialog", { name: "Assign backup Policy" });
    await assign.waitFor();
    await settled();
    await screenshot(page, "policies-assign-dialog-dark");
    await assign.getByRole("button", { name: "Cancel" }).click();
    await assign.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
  });
});

describe("backup policies on the free plan", () => {
  it("when the organisation's answer names its plan 'matterhorn', then the screen gates by that name ('premium' unless 'matterhorn')", async () => {
    const details = (url: URL) => /^\/v1\/organizations\/[^/]+$/.test(url.pathname);
    await page.route(details, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...body, plan: { name: "matterhorn" } } });
    });
    await openPolicies();
    await page.getByTestId("policies-free-plan").waitFor();
    expect(await page.getByRole("button", { name: "New policy" }).isDisabled()).toBe(true);
    await page.unroute(details);
    await openPolicies();
    expect(await page.getByRole("button", { name: "New policy" }).isDisabled()).toBe(false);
    expect(await page.getByTestId("policies-free-plan").count()).toBe(0);
  });

  it("when the organisation is on the free plan, then creating, editing and deleting are disabled with the way to upgrade", async () => {
    await setAccount(organization, { planId: "matterhorn", seats: 2 });
    await openPolicies();
    const notice = page.getByTestId("policies-free-plan");
    await notice.waitFor();
    expect(await notice.innerText()).toContain(
      "Creating, editing and deleting policies needs the Geneva or Zürich plan",
    );
    // It says how resources get backed up on the free plan, since they start without a policy.
    expect(await notice.innerText()).toContain(
      "assign it to them on the Resources screen (Change backup policy); a resource without a policy is not backed up.",
    );
    expect(await page.getByRole("button", { name: "New policy" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Edit Default policy" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Delete Default policy" }).isDisabled()).toBe(true);
    await screenshotBothThemes(page, "policies-free-plan");
    await notice.getByRole("link", { name: "Upgrade" }).click();
    await page.waitForURL((url) => url.pathname === "/plans");
  });

  it("when the screens were used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
