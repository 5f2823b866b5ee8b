/**
 * Audit Logs (docs/requirements.md#screens-and-navigation, #validation) against the fake API: the range's
 * rule texts from the contract, paging as "Page X of Y", failures with their reason, the empty range, and
 * the log-integrity check's answers.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { AUDIT_MESSAGES, type AuditEntry, type AuditPage } from "@alpvault/contracts/audit";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { fill } from "@/testing/fill";
import { renderWithProviders } from "@/testing/render";
import { AuditLogsScreen } from "./audit-logs-screen";

const LOGS = "GET /organizations/:organizationId/audit-logs";
const VERIFY = "GET /organizations/:organizationId/audit-logs/verify";

function anEntry(index: number, change: Partial<AuditEntry> = {}): AuditEntry {
  return {
    entryId: `entry-${index}`,
    date: `2026-02-${String(1 + (index % 28)).padStart(2, "0")}T09:30:00.000Z`,
    actor: "admin@alpvault-demo.test",
    operation: "policy.created",
    object: `Sales policy ${index}`,
    failureReason: null,
    ...change,
  };
}

/** The 25 entries of February, 20 a page, newest first; entry 3 failed. */
function februaryPage(page: number): AuditPage {
  const all = Array.from({ length: 25 }, (_, index) => 25 - index).map((index) =>
    anEntry(index, index === 3 ? { operation: "backup.failed", failureReason: "Google API error" } : {}),
  );
  return {
    entries: all.slice((page - 1) * 20, page * 20),
    page,
    pageSize: 20,
    totalEntries: 25,
    totalPages: 2,
  };
}

const emptyPage: AuditPage = { entries: [], page: 1, pageSize: 20, totalEntries: 0, totalPages: 1 };

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(LOGS, (request) => februaryPage(Number(request.query.page?.[0] ?? "1")));
});

async function openScreen() {
  const rendered = await renderWithProviders(<AuditLogsScreen />, { route: "/audit-logs" });
  await screen.findByText("Sales policy 25");
  return rendered;
}

const pager = () => screen.getByTestId("audit-logs-page");

async function setRange(user: Awaited<ReturnType<typeof openScreen>>["user"], start: string, end: string) {
  await fill(user, screen.getByLabelText("Start Date"), start);
  await fill(user, screen.getByLabelText("End Date"), end);
  await user.click(screen.getByRole("button", { name: "Show entries" }));
}

describe("the audit log", () => {
  it("when it opens, then the last 30 days up to today are asked for, page 1 of 20 entries", async () => {
    const now = new Date();
    await openScreen();
    const { query } = api.lastRequest(LOGS);
    const day = (date: Date) => date.toISOString().slice(0, 10);
    const start = new Date(now);
    start.setDate(start.getDate() - 29);
    expect(query).toEqual({ start: [day(start)], end: [day(now)], page: ["1"], pageSize: ["20"] });
  });

  it("when 25 entries are in the range, then they come 20 a page as Page 1 of 2 and Page 2 of 2, failures with their reason", async () => {
    const { user } = await openScreen();
    expect(pager()).toHaveTextContent("Page 1 of 2");
    expect(screen.getAllByTestId("audit-entry")).toHaveLength(20);
    expect(screen.getByText("25 entries")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous page" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Sales policy 1");
    expect(pager()).toHaveTextContent("Page 2 of 2");
    const rows = screen.getAllByTestId("audit-entry");
    expect(rows.map((row) => row.querySelectorAll("td")[3]?.textContent)).toEqual([
      "Sales policy 5",
      "Sales policy 4",
      "Sales policy 3",
      "Sales policy 2",
      "Sales policy 1",
    ]);
    const failed = rows[2] as HTMLElement;
    expect(within(failed).getByText("Backup failed")).toBeInTheDocument();
    expect(within(failed).getByText("Google API error")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText("Policy created")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Previous page" }));
    await screen.findByText("Sales policy 25");
    expect(pager()).toHaveTextContent("Page 1 of 2");
  });

  it("when a range is chosen, then it is asked for from its first page", async () => {
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Sales policy 1");
    await setRange(user, "2026-02-01", "2026-02-28");
    await waitFor(() =>
      expect(api.lastRequest(LOGS).query).toMatchObject({
        start: ["2026-02-01"],
        end: ["2026-02-28"],
        page: ["1"],
      }),
    );
  });

  it("when a date is missing or the start is after the end, then the rule's text shows, nothing is asked and the entries stay", async () => {
    const { user } = await openScreen();
    const asked = api.requests(LOGS).length;
    await fill(user, screen.getByLabelText("Start Date"), "");
    await user.click(screen.getByRole("button", { name: "Show entries" }));
    expect(await screen.findByText(AUDIT_MESSAGES.startRequired)).toBeInTheDocument();
    await fill(user, screen.getByLabelText("Start Date"), "2026-02-01");
    await fill(user, screen.getByLabelText("End Date"), "");
    await user.click(screen.getByRole("button", { name: "Show entries" }));
    expect(await screen.findByText(AUDIT_MESSAGES.endRequired)).toBeInTheDocument();
    await setRange(user, "2026-02-20", "2026-02-10");
    expect(await screen.findByText(AUDIT_MESSAGES.startBeforeEnd)).toBeInTheDocument();
    expect(screen.getByText(AUDIT_MESSAGES.endAfterStart)).toBeInTheDocument();
    expect(api.requests(LOGS)).toHaveLength(asked);
    expect(pager()).toHaveTextContent("Page 1 of 2");
  });

  it("when a range has no entries, then the table says so on Page 1 of 1", async () => {
    const { user } = await openScreen();
    api.answer(LOGS, emptyPage);
    await setRange(user, "2020-01-01", "2020-01-31");
    expect(await screen.findByTestId("audit-logs-empty")).toHaveTextContent(
      "No audit log entries in this date range.",
    );
    expect(pager()).toHaveTextContent("Page 1 of 1");
  });

  it("when the log fails with {code, message}, then the message shows and the loading stops", async () => {
    api.fail(LOGS, { code: 400, message: AUDIT_MESSAGES.invalidDate });
    await renderWithProviders(<AuditLogsScreen />, { route: "/audit-logs" });
    expect(await screen.findByTestId("audit-logs-error")).toHaveTextContent(AUDIT_MESSAGES.invalidDate);
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });

  it("when the log is loading, then a progress bar shows until it answers", async () => {
    const held = api.hold(LOGS);
    await renderWithProviders(<AuditLogsScreen />, { route: "/audit-logs" });
    await waitFor(() => expect(held.arrived).toBe(1));
    expect(screen.getByRole("progressbar")).toBeInTheDocument();
    held.release();
    await screen.findByText("Sales policy 25");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });
});

describe("verifying the log's integrity", () => {
  const verifiedAt = "2026-11-29T08:00:00.000Z";

  it("when the chain holds, then it says how many entries were verified", async () => {
    api.answer(VERIFY, {
      intact: true,
      entries: 42,
      head: { seq: 42, hash: "abc" },
      verifiedAt,
      firstBroken: null,
    });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Verify log integrity" }));
    expect(await screen.findByTestId("audit-integrity")).toHaveTextContent(
      "The log is intact: 42 entries verified.",
    );
  });

  it("when an entry was changed, then the reason, the API's words and the entry's number, date and operation show", async () => {
    api.answer(VERIFY, {
      intact: false,
      entries: 0,
      head: { seq: 42, hash: "abc" },
      verifiedAt,
      firstBroken: {
        reason: "content-changed",
        message: "The entry was changed after it was sealed.",
        entryId: "entry-1",
        seq: 1,
        date: "2026-02-01T09:30:00.000Z",
        operation: "user.logged-in",
      },
    });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Verify log integrity" }));
    const result = await screen.findByTestId("audit-integrity");
    expect(within(result).getByText("An entry was changed")).toBeInTheDocument();
    expect(within(result).getByText("The entry was changed after it was sealed.")).toBeInTheDocument();
    expect(screen.getByTestId("audit-integrity-entry")).toHaveTextContent(
      "Entry 1 · Feb 1, 2026, 9:30 AM · User logged in",
    );
  });

  it("when the check fails, then the API's message shows as an error and the button works again", async () => {
    api.fail(VERIFY, { code: 503, message: "The log cannot be read now." });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Verify log integrity" }));
    expect(await screen.findByTestId("audit-integrity")).toHaveTextContent("The log cannot be read now.");
    expect(screen.getByRole("button", { name: "Verify log integrity" })).toBeEnabled();
  });

  it("when the check runs, then the button says so and is disabled until it answers", async () => {
    api.answer(VERIFY, { intact: true, entries: 1, head: null, verifiedAt, firstBroken: null });
    const held = api.hold(VERIFY);
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Verify log integrity" }));
    expect(await screen.findByRole("button", { name: "Verifying…" })).toBeDisabled();
    held.release();
    expect(await screen.findByTestId("audit-integrity")).toHaveTextContent(
      "The log is intact: 1 entry verified.",
    );
  });
});
