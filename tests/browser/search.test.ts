/**
 * Search Backups in Chromium (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation): the tabs (Chat, Calendars, Contacts and Directory coming
 * soon), every text of the search card's rules, and searches of one demo mailbox whose catalog this file
 * writes straight into Firestore (the demo organisation may have no backup yet): emails paged 25 a page
 * with sender, recipients and date, a keyword, a date, a message deleted at the source, Drive files with
 * their Google ID and version, an unknown resource, selecting rows for the recovery modal,
 * and `/search/{resourceId}` starting with the resource's email.
 *
 * Afterwards the catalog items and the searches' audit entries are removed again.
 */
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { DocumentReference, Firestore } from "firebase-admin/firestore";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { SEARCH_MESSAGES } from "@alpvault/contracts/search";
import { DEMO_DOMAIN } from "../support/workspace";
import { onboardDemoOrganization, screenshotBothThemes } from "./support/onboarding";
import { expectSnackbar } from "./support/snackbar";
import { withOrganizationDb } from "./support/demo-data";
import type { CatalogItem, CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { itemOf } from "../../functions/src/engine/runner/catalog-items";

jest.setTimeout(120_000);

/** The mailbox this file searches: no other browser file uses it. */
const MAILBOX = { name: "Léa Favre", email: `lea.favre@${DEMO_DOMAIN}` };
const SENDER = { name: "Ueli Schnyder", email: `user@${DEMO_DOMAIN}` };
const KEY_PREFIX = "search-browser-test-";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let organization: OrganizationSummary | undefined;
let resourceId: string | undefined;
const startedAt = new Date().toISOString();

/** The words of texts as the catalog keeps them (lower case, letters and digits). */
const keywordsOf = (...texts: string[]) => [
  ...new Set(
    texts.flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((word) => word.length >= 2),
  ),
];

/** When the demo mailbox was last backed up, as far as this file's catalog says. */
const LAST_BACKUP = "2026-04-05T12:00:00.000Z";

/**
 * An item as the catalog writes it, its current version captured at the last backup: first seen at
 * `firstSeenAt`, deleted at the source at `deletedAtSource` (or not).
 */
function catalogItem(
  version: Pick<CatalogVersion, "itemKey" | "kind" | "metadata" | "search">,
  firstSeenAt: string,
  deletedAtSource: string | null,
): CatalogItem {
  const current: CatalogVersion = {
    ...version,
    versionId: `${version.itemKey}@1`,
    versionKey: "1",
    contentKey: version.itemKey,
    capturedAt: LAST_BACKUP,
    runId: "run-search-browser-test",
    size: "size" in version.search ? version.search.size : 0,
    storedBytes: "size" in version.search ? version.search.size : 0,
    contentDigest: "0".repeat(64),
    dataKeyId: "0".repeat(32),
    formatVersion: 1,
    chunks: [],
  };
  return { ...itemOf(current, undefined), firstSeenAt, deletedAtSource };
}

/** 30 messages, one a day in March 2026: "Quarterly report 1" to 27, then "Team lunch 28" to 30 (the last one deleted at the source). */
const MAILS = Array.from({ length: 30 }, (_, index) => {
  const day = index + 1;
  const subject = day <= 27 ? `Quarterly report ${day}` : `Team lunch ${day}`;
  const date = `2026-03-${String(day).padStart(2, "0")}T10:00:00.000Z`;
  return catalogItem(
    {
      itemKey: `${KEY_PREFIX}mail-${String(day).padStart(2, "0")}`,
      kind: "gmail-message",
      metadata: { labels: [{ id: "INBOX", name: "INBOX" }] },
      search: {
        kind: "mail",
        display: { subject, fromName: SENDER.name },
        subject: subject.toLowerCase(),
        fromName: SENDER.name.toLowerCase(),
        fromEmail: SENDER.email,
        to: [MAILBOX.email],
        date,
        labels: ["inbox"],
        size: 4096 + day,
        keywords: keywordsOf(subject, SENDER.name, SENDER.email, MAILBOX.name, MAILBOX.email),
      },
    },
    date,
    day === 30 ? "2026-04-02T08:00:00.000Z" : null,
  );
});

const FILES = [
  { name: "Budget 2026.xlsx", path: "Finance/Budget 2026.xlsx", googleId: "1BudgetGoogleId", deleted: true },
  { name: "Roadmap.docx", path: "Roadmap.docx", googleId: "1RoadmapGoogleId", deleted: false },
].map((file, index) =>
  catalogItem(
    {
      itemKey: `${KEY_PREFIX}file-${index + 1}`,
      kind: "drive-file",
      metadata: { name: file.name, mimeType: "application/octet-stream", path: file.path, version: "7" },
      search: {
        kind: "drive",
        display: { name: file.name, path: file.path },
        name: file.name.toLowerCase(),
        path: file.path.toLowerCase(),
        mimeType: "application/octet-stream",
        createdBy: MAILBOX.email,
        modifiedTime: "2026-03-15T09:30:00.000Z",
        size: 2048,
        googleId: file.googleId,
        keywords: keywordsOf(file.name),
      },
    },
    "2026-03-01T03:00:00.000Z",
    file.deleted ? "2026-04-03T08:00:00.000Z" : null,
  ),
);

function organizationDb<T>(
  body: (db: Firestore, organizationRef: DocumentReference) => Promise<T>,
): Promise<T> {
  return withOrganizationDb(organization as OrganizationSummary, body);
}

const itemsOf = (organizationRef: DocumentReference) =>
  organizationRef
    .collection("resources")
    .doc(resourceId as string)
    .collection("items");

/** Removes the items this file wrote and the audit entries of its searches. */
async function restoreDemoOrganization(): Promise<void> {
  await organizationDb(async (db, ref) => {
    const batch = db.batch();
    if (resourceId) {
      for (const item of [...MAILS, ...FILES]) batch.delete(itemsOf(ref).doc(item.itemKey));
    }
    const entries = await ref.collection("auditLogs").where("date", ">=", startedAt).get();
    for (const entry of entries.docs) {
      if (entry.get("operation") === "backup-item.searched") batch.delete(entry.ref);
    }
    await batch.commit();
  });
}

beforeAll(async () => {
  organization = await onboardDemoOrganization();
  resourceId = await organizationDb(async (db, ref) => {
    const found = await ref.collection("resources").where("email", "==", MAILBOX.email).get();
    const id = found.docs[0]?.id;
    if (!id) throw new Error(`The demo organisation has no resource ${MAILBOX.email}`);
    const batch = db.batch();
    for (const item of [...MAILS, ...FILES]) {
      batch.set(ref.collection("resources").doc(id).collection("items").doc(item.itemKey), item);
    }
    await batch.commit();
    return id;
  });
  ({ browser, context, page, errors } = await signedInDemoPage());
});

afterAll(() => closeDemoPage({ browser, context }, organization ? restoreDemoOrganization : undefined));

const rows = () => page.getByTestId("search-result");
const pager = () => page.getByTestId("search-page");
const helperOf = (field: "resource" | "date" | "keyword") => page.locator(`#search-${field}-helper-text`);
const recoverButton = () => page.getByRole("button", { name: "Recover" });

async function fillCard(values: { resource?: string; date?: string; keyword?: string }): Promise<void> {
  await page.getByLabel("Resource name or email").fill(values.resource ?? "");
  await page.getByLabel("Date").fill(values.date ?? "");
  await page.getByLabel("Keyword").fill(values.keyword ?? "");
}

async function searchFor(values: { resource?: string; date?: string; keyword?: string }): Promise<void> {
  await fillCard(values);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

/** Waits until a search answered and the table shows `count` rows. */
async function expectRows(count: number): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      document.querySelector('[data-testid="search-results"]')?.getAttribute("aria-busy") === "false" &&
      document.querySelectorAll('[data-testid="search-result"]').length === expected,
    count,
  );
}

/** A field's rule text ("" when none: MUI keeps the line with a zero-width space). */
async function helperText(field: "resource" | "date" | "keyword"): Promise<string> {
  return (await helperOf(field).innerText()).replace(/\u200b/g, "").trim();
}

describe("search backups", () => {
  it("when the admin opens Search Backups, then Gmail, Drive, Calendars and Contacts are the working tabs and Chat and Directory are disabled as coming soon", async () => {
    await page.goto("/search");
    await page.getByRole("heading", { level: 1, name: "Search Backups" }).waitFor();
    expect(await page.getByRole("tab", { name: "Gmail" }).getAttribute("aria-selected")).toBe("true");
    for (const name of ["Drive", "Calendars", "Contacts"]) {
      expect(await page.getByRole("tab", { name, exact: true }).isEnabled()).toBe(true);
    }
    for (const name of ["Chat", "Directory"]) {
      const tab = page.getByRole("tab", { name: new RegExp(`^${name}`) });
      expect(await tab.isDisabled()).toBe(true);
      expect(await tab.textContent()).toContain("Coming soon");
    }
    expect(await page.getByTestId("search-tab-coming-soon").count()).toBe(2);
    await page.getByTestId("search-hint").waitFor();
    expect(await recoverButton().isDisabled()).toBe(true);
    await screenshotBothThemes(page, "search");
  });

  it("when the search card breaks a rule, then the rule's text shows under its field and nothing is searched", async () => {
    await searchFor({});
    await helperOf("resource").getByText(SEARCH_MESSAGES.resourceRequired, { exact: true }).waitFor();
    // Leaving a field shows its rule without submitting.
    await page.getByLabel("Resource name or email").fill("ab");
    await page.getByLabel("Resource name or email").blur();
    await helperOf("resource").getByText(SEARCH_MESSAGES.resourceTooShort, { exact: true }).waitFor();

    for (const date of ["2026-13-01", "13-45-2026", "02-30-2026"]) {
      await searchFor({ resource: MAILBOX.email, date });
      await helperOf("date").getByText(SEARCH_MESSAGES.invalidDate, { exact: true }).waitFor();
      expect(await helperText("resource")).toBe("");
    }
    await searchFor({ resource: MAILBOX.email, keyword: "ab" });
    await helperOf("keyword").getByText(SEARCH_MESSAGES.keywordTooShort, { exact: true }).waitFor();
    await searchFor({ resource: MAILBOX.email, date: "13-45-2026", keyword: "bad!" });
    await helperOf("keyword").getByText(SEARCH_MESSAGES.keywordCharacters, { exact: true }).waitFor();
    await helperOf("date").getByText(SEARCH_MESSAGES.invalidDate, { exact: true }).waitFor();
    await screenshotBothThemes(page, "search-invalid");
    // None of these reached the API.
    await page.getByTestId("search-hint").waitFor();
    expect(await page.getByTestId("search-results").count()).toBe(0);
  });

  it("when a mailbox is searched, then its emails come newest first, 25 a page, with subject, sender, recipient, date and the deleted-at-source chip", async () => {
    await searchFor({ resource: MAILBOX.email });
    for (const field of ["resource", "date", "keyword"] as const) {
      expect(await helperText(field)).toBe("");
    }
    await expectRows(25);
    expect(await pager().textContent()).toBe("Page 1 of 2");
    expect(await page.getByTestId("search-total").textContent()).toBe("30 results");
    expect(await page.getByTestId("search-results-for").textContent()).toBe(
      `Results for ${MAILBOX.name} (${MAILBOX.email})`,
    );
    const headers = await page.getByTestId("search-results").locator("thead th").allInnerTexts();
    expect(headers.slice(1)).toEqual(["Subject", "From", "To", "Date"]);
    const first = rows().first();
    expect(await first.locator("td:nth-child(2)").innerText()).toMatch(/^Team lunch 30\s+Deleted at source$/);
    expect(await first.getByTestId("deleted-at-source").count()).toBe(1);
    expect(await first.locator("td:nth-child(3)").innerText()).toMatch(
      new RegExp(`^${SENDER.name}\\s+${SENDER.email.replace(/\./g, "\\.")}$`),
    );
    expect(await first.locator("td:nth-child(4)").innerText()).toBe(MAILBOX.email);
    expect(await first.locator("td:nth-child(5)").innerText()).toMatch(/Mar 30, 2026/);
    expect(await page.getByTestId("deleted-at-source").count()).toBe(1);
    expect(await rows().nth(1).locator("td:nth-child(2)").innerText()).toBe("Team lunch 29");
    await screenshotBothThemes(page, "search-gmail");

    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Quarterly report 1", { exact: true }).waitFor();
    expect(await pager().textContent()).toBe("Page 2 of 2");
    expect(await rows().locator("td:nth-child(2)").allInnerTexts()).toEqual(
      [5, 4, 3, 2, 1].map((day) => `Quarterly report ${day}`),
    );
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await page.getByText("Team lunch 30", { exact: true }).waitFor();
    expect(await pager().textContent()).toBe("Page 1 of 2");
  });

  it("when a keyword or a date is given, then only the matching emails show; none gives the empty text", async () => {
    await searchFor({ resource: MAILBOX.email, keyword: "lunch" });
    await page.getByText("Page 1 of 1").waitFor();
    await expectRows(3);
    expect(await rows().locator("td:nth-child(2)").allInnerTexts()).toEqual([
      expect.stringMatching(/^Team lunch 30/),
      "Team lunch 29",
      "Team lunch 28",
    ]);
    await searchFor({ resource: MAILBOX.email, date: "03-05-2026" });
    await page.getByText("5 results", { exact: true }).waitFor();
    expect(await rows().locator("td:nth-child(2)").allInnerTexts()).toEqual(
      [5, 4, 3, 2, 1].map((day) => `Quarterly report ${day}`),
    );
    await searchFor({ resource: MAILBOX.email, keyword: "nothing-like-this" });
    await page.getByText("0 results", { exact: true }).waitFor();
    expect(await page.getByTestId("search-empty").innerText()).toBe("No backed-up emails match this search.");
    expect(await pager().textContent()).toBe("Page 1 of 1");
    await screenshotBothThemes(page, "search-empty");
  });

  it("when rows are selected, then Recover is enabled and opens the recovery modal for them", async () => {
    await searchFor({ resource: MAILBOX.email });
    await page.getByText("30 results", { exact: true }).waitFor();
    expect(await recoverButton().isDisabled()).toBe(true);
    await page.getByRole("checkbox", { name: "Select Team lunch 29" }).check();
    expect(await page.getByText("1 selected", { exact: true }).count()).toBe(1);
    expect(await recoverButton().isEnabled()).toBe(true);
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByText("25 selected", { exact: true }).waitFor();
    await screenshotBothThemes(page, "search-selected");
    await recoverButton().click();
    const dialog = page.getByRole("dialog", { name: "Recover data" });
    await dialog.waitFor();
    expect(await dialog.getByTestId("recovery-subject").innerText()).toMatch(
      new RegExp(`^From ${MAILBOX.name} \\(${MAILBOX.email}\\)\\s+25 selected items$`),
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("checkbox", { name: "Select all on this page" }).uncheck();
    expect(await recoverButton().isDisabled()).toBe(true);
  });

  it("when rows of a search with a date are recovered, then the modal says the items are recovered as held at the end of that day", async () => {
    await searchFor({ resource: MAILBOX.email, date: "03-05-2026" });
    await page.getByText("5 results", { exact: true }).waitFor();
    await page.getByRole("checkbox", { name: "Select Quarterly report 3" }).check();
    await recoverButton().click();
    const dialog = page.getByRole("dialog", { name: "Recover data" });
    await dialog.waitFor();
    expect(await dialog.getByTestId("recovery-subject").innerText()).toMatch(
      /1 selected item\s+As the backups held them at the end of 03-05-2026$/,
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("when the Drive tab is chosen, then the mailbox's files show with creator, dates, size, Google ID and version", async () => {
    await page.getByRole("tab", { name: "Drive" }).click();
    await page.getByText("Roadmap.docx", { exact: true }).waitFor();
    await expectRows(2);
    const headers = await page.getByTestId("search-results").locator("thead th").allInnerTexts();
    expect(headers.slice(1)).toEqual([
      "Name",
      "Created by",
      "Last modified",
      "Last backup",
      "File size",
      "Google ID",
      "Current version",
    ]);
    const budget = rows().first();
    expect(await budget.locator("td:nth-child(2)").innerText()).toMatch(
      /^Budget 2026\.xlsx\s+Finance\/Budget 2026\.xlsx\s+Deleted at source$/,
    );
    const cells = await budget.locator("td").allInnerTexts();
    expect(cells.slice(2)).toEqual([
      MAILBOX.email,
      expect.stringMatching(/Mar 15, 2026/),
      expect.stringMatching(/Apr 5, 2026/),
      "2.00 KB",
      "1BudgetGoogleId",
      "7",
    ]);
    expect(await rows().nth(1).getByTestId("deleted-at-source").count()).toBe(0);
    await screenshotBothThemes(page, "search-drive");
    await searchFor({ resource: MAILBOX.email, keyword: "roadmap" });
    await page.getByText("1 result", { exact: true }).waitFor();
    expect(await rows().locator("td:nth-child(2)").allInnerTexts()).toEqual(["Roadmap.docx"]);
    await page.getByRole("tab", { name: "Gmail" }).click();
  });

  it("when the resource is unknown, then the snackbar says no resource matches, each time it is searched", async () => {
    await searchFor({ resource: `nobody@${DEMO_DOMAIN}` });
    await expectSnackbar(page, SEARCH_MESSAGES.resourceNotFound, true);
    await page.getByTestId("search-hint").waitFor();
    // The same search again asks the API again.
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expectSnackbar(page, SEARCH_MESSAGES.resourceNotFound, true);
    expect(await page.getByTestId("search-error").count()).toBe(0);
  });

  it('when the search fails with an answer that has no message, then the snackbar says "Something went wrong."', async () => {
    const failing = /\/v1\/organizations\/[^/]+\/search$/;
    await page.route(failing, (route) => route.fulfill({ status: 400, json: { code: 400, message: "" } }));
    try {
      await searchFor({ resource: `nobody@${DEMO_DOMAIN}` });
      await expectSnackbar(page, "Something went wrong.", true);
    } finally {
      await page.unroute(failing);
    }
  });

  it("when Search Backups is opened for a resource, then the card starts with its email and its emails show", async () => {
    await page.goto(`/search/${encodeURIComponent(resourceId as string)}`);
    await page.getByTestId("search-resource").waitFor();
    expect(await page.getByTestId("search-resource").textContent()).toBe(
      `Resource: ${MAILBOX.name} (${MAILBOX.email})`,
    );
    expect(await page.getByLabel("Resource name or email").inputValue()).toBe(MAILBOX.email);
    await page.getByText("30 results", { exact: true }).waitFor();
    expect(await pager().textContent()).toBe("Page 1 of 2");

    await page.goto("/search/no-such-resource");
    expect(await page.getByTestId("search-resource").textContent()).toBe("Resource: no-such-resource");
    await page.getByTestId("search-resource-missing").waitFor();
    expect(await page.getByLabel("Resource name or email").inputValue()).toBe("");
    expect(errors).toEqual([]);
  });
});
