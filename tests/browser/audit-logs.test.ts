/**
 * The Audit Logs screen in Chromium: today's entries of the demo organisation (its sign-in and set-up),
 * paging through a month of entries as "Page X of Y", the date range rules of docs/requirements.md#validation, and "Verify log
 * integrity" naming an entry edited behind the API's back.
 */
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { AUDIT_OPERATIONS, isAuditOperation } from "@alpvault/contracts/audit";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { withRegionDb } from "../support/organizations";
import { onboardDemoOrganization, screenshotBothThemes } from "./support/onboarding";

jest.setTimeout(120_000);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let organization: OrganizationSummary;

/** Entries of a past month, so paging has something to page through; removed again in afterAll. */
const SEEDED = Array.from({ length: 25 }, (_, index) => ({
  id: `seeded-2026-02-${String(index + 1).padStart(2, "0")}`,
  date: `2026-02-${String(index + 1).padStart(2, "0")}T09:30:00.000Z`,
  object: `Sales policy ${index + 1}`,
}));

function auditLogs<T>(body: (logs: FirebaseFirestore.CollectionReference) => Promise<T>): Promise<T> {
  return withRegionDb(`region-${organization.subscriptions[0]?.region.id ?? "ch"}`, (db) =>
    body(db.collection("organizations").doc(organization.organizationId).collection("auditLogs")),
  );
}

beforeAll(async () => {
  organization = await onboardDemoOrganization();
  await auditLogs(async (logs) => {
    const batch = logs.firestore.batch();
    for (const entry of SEEDED) {
      batch.set(logs.doc(entry.id), {
        date: entry.date,
        actor: "admin@alpvault-demo.test",
        operation: "policy.updated",
        object: entry.object,
        failureReason: entry.id.endsWith("-03") ? "Google API error" : null,
      });
    }
    await batch.commit();
  });
  ({ browser, context, page, errors } = await signedInDemoPage());
});

afterAll(() =>
  closeDemoPage({ browser, context }, () =>
    auditLogs(async (logs) => {
      const batch = logs.firestore.batch();
      for (const entry of SEEDED) batch.delete(logs.doc(entry.id));
      await batch.commit();
    }),
  ),
);

const rows = () => page.getByTestId("audit-entry");
const pager = () => page.getByTestId("audit-logs-page");

async function setRange(start: string, end: string): Promise<void> {
  await page.getByLabel("Start Date").fill(start);
  await page.getByLabel("End Date").fill(end);
  await page.getByRole("button", { name: "Show entries" }).click();
}

describe("audit logs", () => {
  it("when the admin opens Audit Logs, then the last 30 days show their sign-in first and, a few pages on at most, the set-up", async () => {
    await page.goto("/audit-logs");
    await page.getByRole("heading", { level: 1, name: "Audit Logs" }).waitFor();
    await rows().first().waitFor();
    const operations = await rows().locator("td:nth-child(3)").allTextContents();
    expect(operations).toContain("User logged in");
    const actors = await rows().locator("td:nth-child(2)").allTextContents();
    expect(actors).toContain("admin@alpvault-demo.test");
    await screenshotBothThemes(page, "audit-logs");
    // Other browser files sign in and back up the demo organisation too: its set-up may be a page or two on.
    const pages = Number(/^Page 1 of (\d+)$/.exec((await pager().textContent()) ?? "")?.[1]);
    expect(pages).toBeGreaterThanOrEqual(1);
    const seen = [...operations];
    for (let next = 2; next <= pages; next += 1) {
      await page.getByRole("button", { name: "Next page" }).click();
      await page.getByText(`Page ${next} of ${pages}`, { exact: true }).waitFor();
      seen.push(...(await rows().locator("td:nth-child(3)").allTextContents()));
    }
    expect(seen).toContain("Resources added");
  });

  it("when a month with 25 entries is chosen, then they come 20 per page as Page 1 of 2 and Page 2 of 2, failures with their reason", async () => {
    await setRange("2026-02-01", "2026-02-28");
    await page.getByText("Sales policy 25").waitFor();
    expect(await pager().textContent()).toBe("Page 1 of 2");
    expect(await rows().count()).toBe(20);
    expect(await page.getByText("25 entries").count()).toBe(1);
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Sales policy 1", { exact: true }).waitFor();
    expect(await pager().textContent()).toBe("Page 2 of 2");
    expect(await rows().locator("td:nth-child(4)").allTextContents()).toEqual([
      "Sales policy 5",
      "Sales policy 4",
      "Sales policy 3",
      "Sales policy 2",
      "Sales policy 1",
    ]);
    const failed = rows().filter({ hasText: "Sales policy 3" });
    expect(await failed.locator("td:nth-child(5)").textContent()).toBe("Google API error");
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await screenshotBothThemes(page, "audit-logs-page-2");
    await page.getByRole("button", { name: "Previous page" }).click();
    await page.getByText("Sales policy 25").waitFor();
    expect(await pager().textContent()).toBe("Page 1 of 2");
  });

  it("when a date is missing or the start is after the end, then the form shows the rule's text and keeps the entries", async () => {
    await page.getByLabel("Start Date").fill("");
    await page.getByRole("button", { name: "Show entries" }).click();
    await page.getByText("Start Date is required").waitFor();
    await page.getByLabel("Start Date").fill("2026-02-01");
    await page.getByLabel("End Date").fill("");
    await page.getByRole("button", { name: "Show entries" }).click();
    await page.getByText("End Date is required").waitFor();
    await setRange("2026-02-20", "2026-02-10");
    await page.getByText("Start Date must be before End Date").waitFor();
    await page.getByText("End Date must be after Start Date").waitFor();
    await screenshotBothThemes(page, "audit-logs-invalid-range");
    expect(await pager().textContent()).toBe("Page 1 of 2");
  });

  it("when a range has no entries, then the table says so on Page 1 of 1", async () => {
    await setRange("2020-01-01", "2020-01-31");
    await page.getByTestId("audit-logs-empty").waitFor();
    expect(await pager().textContent()).toBe("Page 1 of 1");
    expect(errors).toEqual([]);
  });

  it("when the first entry is edited behind the API's back, then Verify log integrity names it", async () => {
    const first = await auditLogs(async (logs) => (await logs.where("seq", "==", 1).get()).docs[0]);
    expect(first).toBeDefined();
    const original = String(first?.get("object"));
    const operation: unknown = first?.get("operation");
    await auditLogs((logs) => logs.doc(String(first?.id)).update({ object: "Nothing to see here" }));
    try {
      await page.getByRole("button", { name: "Verify log integrity" }).click();
      const result = page.getByTestId("audit-integrity");
      await result.waitFor();
      expect(await result.getByText("An entry was changed").count()).toBe(1);
      expect(await result.getByText("The entry was changed after it was sealed.").count()).toBe(1);
      const entry = (await page.getByTestId("audit-integrity-entry").textContent()) ?? "";
      expect(entry.startsWith("Entry 1 · ")).toBe(true);
      expect(entry.endsWith(isAuditOperation(operation) ? AUDIT_OPERATIONS[operation] : "?")).toBe(true);
      await screenshotBothThemes(page, "audit-logs-integrity-broken");
    } finally {
      await auditLogs((logs) => logs.doc(String(first?.id)).update({ object: original }));
    }
    expect(errors).toEqual([]);
  });
});
