/**
 * The secrets screen (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation, #who-may-do-what, #errors-and-messages) with the demo organisation: on a paid plan the admin adds a
 * Cloud KMS key made in the stack's KMS emulator (the form shows the required texts), sees the snackbar,
 * makes it the default and deletes it; on the free plan the add button is disabled and the screen explains
 * that keys need a paid plan, with the way to the plans. The demo organisation's plan, secrets and the
 * audit entries of this file are restored afterwards.
 */
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { SECRET_MESSAGES } from "@alpvault/contracts/secrets";
import { createKmsKey } from "../support/kms";
import { setAccount, withRegionDb } from "../support/organizations";
import { screenshot } from "./support/browser";
import { onboardDemoOrganization, screenshotBothThemes } from "./support/onboarding";

jest.setTimeout(120_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let organization: OrganizationSummary;
let savedAccount: Parameters<typeof setAccount>[1] | undefined;
const startedAt = new Date().toISOString();

function organizationDoc<T>(body: (doc: FirebaseFirestore.DocumentReference) => Promise<T>): Promise<T> {
  return withRegionDb(`region-${organization.subscriptions[0]?.region.id ?? "ch"}`, (db) =>
    body(db.collection("organizations").doc(organization.organizationId)),
  );
}

/** Puts back what this file changed in the demo organisation (other browser files run after it). */
async function restoreDemoOrganization(): Promise<void> {
  await organizationDoc(async (doc) => {
    const batch = doc.firestore.batch();
    const secrets = await doc.collection("secrets").get();
    for (const secret of secrets.docs) {
      if (String(secret.get("createdAt")) >= startedAt) batch.delete(secret.ref);
    }
    const entries = await doc.collection("auditLogs").where("date", ">=", startedAt).get();
    for (const entry of entries.docs) {
      if (String(entry.get("operation")).startsWith("encryption-key.")) batch.delete(entry.ref);
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

const rows = () => page.getByTestId("secret-row");
const snackbar = () => page.getByTestId("snackbar");
const dialog = () => page.getByTestId("secret-dialog");

/** Opens the secrets screen and waits until the list has loaded. */
async function openSecrets(): Promise<void> {
  await page.goto("/profile/secrets");
  await page.getByRole("heading", { level: 1, name: "Secrets" }).waitFor();
  await page.waitForFunction(
    () =>
      document.querySelector("[data-testid=secrets-table]")?.getAttribute("aria-busy") === "false" &&
      document.querySelectorAll("[data-testid=secret-row]").length > 0,
  );
}

/** The rows as "description|default" in screen order. */
async function rowSummary(): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>("[data-testid=secret-row]")).map(
      (row) =>
        `${row.querySelector<HTMLElement>("[data-testid=secret-description]")?.innerText ?? ""}|${row.dataset.default ?? ""}`,
    ),
  );
}

/** Waits until the table is idle and shows exactly these rows (a change reloads the list through the API). */
async function waitForRows(expected: string[]): Promise<void> {
  await page
    .waitForFunction(
      (names) =>
        document.querySelector("[data-testid=secrets-table]")?.getAttribute("aria-busy") === "false" &&
        JSON.stringify(
          Array.from(document.querySelectorAll<HTMLElement>("[data-testid=secret-row]")).map(
            (row) =>
              `${row.querySelector<HTMLElement>("[data-testid=secret-description]")?.innerText ?? ""}|${row.dataset.default ?? ""}`,
          ),
        ) === JSON.stringify(names),
      expected,
    )
    .catch(async (error: unknown) => {
      throw new Error(
        `Rows stayed ${JSON.stringify(await rowSummary())}, expected ${JSON.stringify(expected)}`,
        {
          cause: error,
        },
      );
    });
}

async function expectSnackbar(text: string): Promise<void> {
  await snackbar().filter({ hasText: text }).waitFor();
  expect(await snackbar().getAttribute("data-error")).toBe("false");
}

describe("secrets", () => {
  it("when a paid plan's admin adds a Cloud KMS key, then it is listed with a snackbar, can be edited, becomes the default and can be deleted", async () => {
    const keyName = await createKmsKey();
    await openSecrets();
    const builtIn = "Alpvault default key (AES-256)";
    await waitForRows([`${builtIn}|true`]);
    expect(await rows().first().getByTestId("secret-default").innerText()).toBe("Default");
    await screenshotBothThemes(page, "secrets");

    await page.getByRole("button", { name: "Add secret" }).click();
    await dialog().waitFor();
    await dialog().getByRole("button", { name: "Add" }).click();
    await dialog().getByText(SECRET_MESSAGES.descriptionRequired).waitFor();
    await dialog().getByLabel("Cloud KMS key resource name").fill("projects/p/keys/k");
    await dialog().getByLabel("Description").fill("Finance key");
    await dialog().getByRole("button", { name: "Add" }).click();
    await dialog().getByText(SECRET_MESSAGES.kmsResourceNameInvalid).waitFor();
    await screenshot(page, "secrets-dialog-errors");

    await dialog().getByLabel("Cloud KMS key resource name").fill(keyName);
    await dialog().getByRole("button", { name: "Add" }).click();
    await expectSnackbar(SECRET_MESSAGES.added);
    await dialog().waitFor({ state: "detached" });
    await waitForRows([`${builtIn}|true`, "Finance key|false"]);
    const added = rows().filter({ hasText: "Finance key" });
    expect(await added.getByTestId("secret-status").getAttribute("data-health")).toBe("ok");
    expect(await added.innerText()).toContain(keyName);
    await screenshotBothThemes(page, "secrets-added");

    await page.getByRole("button", { name: "Edit Finance key" }).click();
    await dialog().getByRole("heading", { name: "Edit secret" }).waitFor();
    expect(await dialog().getByLabel("Cloud KMS key resource name").inputValue()).toBe(keyName);
    await dialog().getByLabel("Description").fill("");
    await dialog().getByRole("button", { name: "Save" }).click();
    await dialog().getByText(SECRET_MESSAGES.descriptionRequired).waitFor();
    await dialog().getByLabel("Description").fill("Finance key 2026");
    await dialog().getByRole("button", { name: "Save" }).click();
    await expectSnackbar(SECRET_MESSAGES.updated);
    await dialog().waitFor({ state: "detached" });
    await waitForRows([`${builtIn}|true`, "Finance key 2026|false"]);
    const edited = rows().filter({ hasText: "Finance key 2026" });

    await edited.getByRole("button", { name: "Make default" }).click();
    await expectSnackbar("“Finance key 2026” is now the default key.");
    await waitForRows(["Finance key 2026|true", `${builtIn}|false`]);

    await page.getByRole("button", { name: "Delete Finance key 2026" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete secret?" });
    await confirm.waitFor();
    await screenshot(page, "secrets-delete-confirm");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expectSnackbar(SECRET_MESSAGES.deleted);
    await waitForRows([`${builtIn}|true`]);
  });

  it("when the organisation is on the free plan, then adding is disabled and the screen explains the paid plan with a link to the plans", async () => {
    await setAccount(organization, { planId: "matterhorn", seats: 2 });
    await openSecrets();
    const notice = page.getByTestId("secrets-free-plan");
    await notice.waitFor();
    expect(await notice.innerText()).toContain("Your own encryption keys need a paid plan");
    expect(await page.getByRole("button", { name: "Add secret" }).isDisabled()).toBe(true);
    await screenshotBothThemes(page, "secrets-free-plan");
    await notice.getByRole("link", { name: "See plans" }).click();
    await page.waitForURL((url) => url.pathname === "/plans");
  });

  it("when the screens were used, then the page reported no errors", () => {
    expect(errors).toEqual([]);
  });
});
