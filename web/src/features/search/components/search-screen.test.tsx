/**
 * Search Backups (docs/requirements.md#screens-and-navigation, #validation, #data-the-console-shows)
 * against the fake API: the tabs, the search card's rule texts from the contract, what is asked, the
 * emails and files shown, paging, selection for recovery, exports started from the answer, and errors.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { EXPORT_MESSAGES } from "@alpvault/contracts/exports";
import { SEARCH_MESSAGES } from "@alpvault/contracts/search";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { fill } from "@/testing/fill";
import { aResource, aSharedDrive } from "@/testing/fixtures/resources";
import {
  aContact,
  aFile,
  aMail,
  anEvent,
  anExport,
  calendarAnswer,
  contactsAnswer,
  driveAnswer,
  mailAnswer,
} from "@/testing/fixtures/search";
import { renderWithProviders, type Rendered } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { SearchScreen } from "./search-screen";

const SEARCH = "POST /organizations/:organizationId/search";
const EXPORTS = "GET /organizations/:organizationId/exports";
const START_EXPORT = "POST /organizations/:organizationId/exports";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(EXPORTS, { exports: [] });
  api.answer(SEARCH, mailAnswer([aMail(1), aMail(2, { deletedAtSource: "2026-04-01T10:00:00.000Z" })]));
});

async function openSearch(props: Partial<Parameters<typeof SearchScreen>[0]> = {}) {
  const onRecover = jest.fn();
  const rendered = await renderWithProviders(
    <SearchScreen resource={null} resourceError={null} onRecover={onRecover} {...props} />,
    { route: "/search" },
  );
  return { ...rendered, onRecover };
}

async function searchFor(
  user: Rendered["user"],
  fields: { resource?: string; date?: string; keyword?: string },
) {
  if (fields.resource !== undefined)
    await fill(user, screen.getByLabelText("Resource name or email"), fields.resource);
  if (fields.date !== undefined) await fill(user, screen.getByLabelText("Date"), fields.date);
  if (fields.keyword !== undefined) await fill(user, screen.getByLabelText("Keyword"), fields.keyword);
  await user.click(screen.getByRole("button", { name: "Search" }));
}

const rows = () => screen.getAllByTestId("search-result");
const cells = (row: HTMLElement) =>
  Array.from(row.querySelectorAll("td"))
    .slice(1)
    .map((cell) => cell.textContent);

describe("the search card", () => {
  it("when the screen opens, then Gmail, Drive, Calendars and Contacts are tabs, Chat and Directory are disabled as coming soon, and a hint shows", async () => {
    await openSearch();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual([
      "Gmail",
      "Drive",
      "ChatComing soon",
      "Calendars",
      "Contacts",
      "DirectoryComing soon",
    ]);
    expect(screen.getByRole("tab", { name: "Gmail" })).toHaveAttribute("aria-selected", "true");
    for (const name of ["Drive", "Calendars", "Contacts"])
      expect(screen.getByRole("tab", { name })).toBeEnabled();
    const comingSoon = screen.getAllByTestId("search-tab-coming-soon");
    expect(comingSoon.map((tab) => tab.textContent)).toEqual(["ChatComing soon", "DirectoryComing soon"]);
    for (const tab of comingSoon) expect(tab).toBeDisabled();
    expect(screen.getByTestId("search-hint")).toHaveTextContent(
      "Enter a resource's name or email to search its backups.",
    );
  });

  it.each([
    [{ resource: "" }, SEARCH_MESSAGES.resourceRequired],
    [{ resource: "ad" }, SEARCH_MESSAGES.resourceTooShort],
    [{ resource: "ada", date: "2026-03-15" }, SEARCH_MESSAGES.invalidDate],
    [{ resource: "ada", date: "02-30-2026" }, SEARCH_MESSAGES.invalidDate],
    [{ resource: "ada", date: "12-31-2099" }, SEARCH_MESSAGES.futureDate],
    [{ resource: "ada", keyword: "ab" }, SEARCH_MESSAGES.keywordTooShort],
    [{ resource: "ada", keyword: "budget!" }, SEARCH_MESSAGES.keywordCharacters],
  ])("when the card holds %j, then it says “%s” and nothing is searched", async (fields, text) => {
    const { user } = await openSearch();
    await searchFor(user, fields);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(api.requests(SEARCH)).toHaveLength(0);
  });

  it("when a mailbox is searched with a keyword and a date, then the API is asked for them, trimmed, from page 1 of 25", async () => {
    const { user } = await openSearch();
    await searchFor(user, {
      resource: " admin@alpvault-demo.test ",
      date: "03-31-2026",
      keyword: " budget ",
    });
    await screen.findAllByTestId("search-result");
    expect(api.lastRequest(SEARCH).fields).toEqual({
      service: "gmail",
      resource: "admin@alpvault-demo.test",
      date: "03-31-2026",
      keyword: "budget",
      page: 1,
      pageSize: 25,
    });
  });
});

describe("the results", () => {
  it("when emails are found, then each shows subject, sender name and address, recipients and date, deleted ones marked", async () => {
    const { user } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    await screen.findAllByTestId("search-result");
    expect(screen.getByTestId("search-results-for")).toHaveTextContent(
      "Results for Ada Brunner (admin@alpvault-demo.test)",
    );
    expect(screen.getByTestId("search-total")).toHaveTextContent("2 results");
    expect(cells(rows()[0] as HTMLElement)).toEqual([
      "Budget 1",
      "Ueli Schnyderuser@alpvault-demo.test",
      "admin@alpvault-demo.test",
      "Mar 15, 2026, 9:30 AM",
    ]);
    expect(within(rows()[1] as HTMLElement).getByTestId("deleted-at-source")).toHaveTextContent(
      "Deleted at source",
    );
    expect(within(rows()[0] as HTMLElement).queryByTestId("deleted-at-source")).not.toBeInTheDocument();
    expect(screen.getByTestId("search-page")).toHaveTextContent("Page 1 of 1");
  });

  it("when files are found on the Drive tab, then each shows creator, dates, size, Google ID and version; Google Docs have no size", async () => {
    api.answer(
      SEARCH,
      driveAnswer([
        aFile(1),
        aFile(2, { name: "Plan", path: "My Drive/Plan", mimeType: "application/vnd.google-apps.document" }),
        aFile(3, { name: "Survey", path: "Survey", notExportable: true }),
      ]),
    );
    const { user } = await openSearch();
    await user.click(screen.getByRole("tab", { name: "Drive" }));
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    await screen.findAllByTestId("search-result");
    expect(api.lastRequest(SEARCH).fields.service).toEqual("drive");
    expect(cells(rows()[0] as HTMLElement)).toEqual([
      "Budget 1.xlsxMy Drive/Finance/Budget 1.xlsx",
      "admin@alpvault-demo.test",
      "Mar 15, 2026, 9:30 AM",
      "Apr 5, 2026, 2:00 AM",
      "2.00 KB",
      "1BudgetGoogleId",
      "7",
    ]);
    expect(cells(rows()[1] as HTMLElement)[4]).toBe("—");
    expect(within(rows()[2] as HTMLElement).getByTestId("not-exportable")).toHaveTextContent(
      "Not exportable",
    );
  });

  it("when events are found on the Calendars tab, then each shows its title and calendar, organiser, guests, start, end and last backup; all-day events show their day", async () => {
    api.answer(
      SEARCH,
      calendarAnswer([
        anEvent(1),
        anEvent(2, { summary: "Projekt Säntis", start: "2027-03-08", end: "2027-03-09", attendees: [] }),
        anEvent(0, { entry: "calendar", summary: "Work", organizer: "", attendees: [], start: "", end: "" }),
      ]),
    );
    const { user } = await openSearch();
    await user.click(screen.getByRole("tab", { name: "Calendars" }));
    await searchFor(user, { resource: "admin@alpvault-demo.test", keyword: "board" });
    await screen.findAllByTestId("search-result");
    expect(api.lastRequest(SEARCH).fields.service).toEqual("calendar");
    expect(screen.getByRole("table", { name: "Backed-up calendars and events" })).toBeInTheDocument();
    expect(cells(rows()[0] as HTMLElement)).toEqual([
      "Board meeting 1Work",
      "admin@alpvault-demo.test",
      "2 guestsuser@alpvault-demo.test, vreni@example.ch",
      "Mar 1, 2027, 9:00 AM",
      "Mar 1, 2027, 10:00 AM",
      "Apr 5, 2026, 2:00 AM",
    ]);
    expect(cells(rows()[1] as HTMLElement).slice(2, 5)).toEqual(["—", "Mar 8, 2027", "Mar 9, 2027"]);
    expect(cells(rows()[2] as HTMLElement)[0]).toBe("WorkCalendar");
  });

  it("when contacts are found on the Contacts tab, then each shows name, email, phone and groups, and Export all exports them as vCard", async () => {
    api.answer(
      SEARCH,
      contactsAnswer([
        aContact(1),
        aContact(2, { entry: "group", name: "Team", email: "", phones: [], groups: [] }),
      ]),
    );
    api.answer(START_EXPORT, anExport({ service: "contacts", format: "vcf" }));
    const { user } = await openSearch();
    await user.click(screen.getByRole("tab", { name: "Contacts" }));
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    await screen.findAllByTestId("search-result");
    expect(cells(rows()[0] as HTMLElement)).toEqual([
      "Vreni Muster 1",
      "vreni1@example.ch",
      "+41 44 123 45 67",
      "Team",
      "Apr 5, 2026, 2:00 AM",
    ]);
    expect(cells(rows()[1] as HTMLElement)).toEqual([
      "TeamContact group",
      "—",
      "—",
      "—",
      "Apr 5, 2026, 2:00 AM",
    ]);
    await user.click(screen.getByRole("button", { name: "Export all" }));
    await expectSnackbar(EXPORT_MESSAGES.started, "success");
    expect(api.lastRequest(START_EXPORT).body).toMatchObject({ service: "contacts", format: "vcf" });
  });

  it("when nothing matches, then the table says so for the service", async () => {
    api.answer(SEARCH, mailAnswer([]));
    const { user } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test", keyword: "nothing" });
    expect(await screen.findByTestId("search-empty")).toHaveTextContent(
      "No backed-up emails match this search.",
    );
  });

  it("when there are more pages, then Next asks with the page's token, and the selection starts again", async () => {
    api.answer(SEARCH, (request) =>
      request.fields.page === 2
        ? mailAnswer([aMail(26)], { total: 26, page: 2, nextPageToken: null })
        : mailAnswer([aMail(1), aMail(2)], { total: 26, nextPageToken: "token-2" }),
    );
    const { user } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    await screen.findAllByTestId("search-result");
    expect(screen.getByTestId("search-page")).toHaveTextContent("Page 1 of 2");
    await user.click(screen.getByRole("checkbox", { name: "Select Budget 1" }));
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Budget 26");
    expect(api.lastRequest(SEARCH).fields).toMatchObject({ page: 2, pageToken: "token-2" });
    expect(screen.getByTestId("search-page")).toHaveTextContent("Page 2 of 2");
    expect(screen.getByRole("button", { name: "Recover" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
  });

  it("when rows of a search with a date are selected and recovered, then the recovery gets them, their resource, the service and the date", async () => {
    const { user, onRecover } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test", date: "03-31-2026" });
    await screen.findAllByTestId("search-result");
    expect(screen.getByRole("button", { name: "Recover" })).toBeDisabled();
    await user.click(screen.getByRole("checkbox", { name: "Select all on this page" }));
    expect(screen.getByText("2 selected")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Recover" }));
    expect(onRecover).toHaveBeenCalledWith({
      resourceId: "user-ada",
      resourceName: "Ada Brunner (admin@alpvault-demo.test)",
      services: ["gmail"],
      itemIds: ["mail-1", "mail-2"],
      date: "03-31-2026",
    });
  });
});

describe("search failures", () => {
  it("when no resource matches, then the snackbar says so each time it is searched, with no retry", async () => {
    api.fail(SEARCH, { code: 404, message: SEARCH_MESSAGES.resourceNotFound });
    const { user } = await openSearch();
    await searchFor(user, { resource: "nobody@alpvault-demo.test" });
    const snackbar = await expectSnackbar(SEARCH_MESSAGES.resourceNotFound, "error");
    expect(screen.getByTestId("search-hint")).toBeInTheDocument();
    await user.click(within(snackbar).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByTestId("snackbar")).not.toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "Search" }));
    await expectSnackbar(SEARCH_MESSAGES.resourceNotFound, "error");
    expect(api.requests(SEARCH)).toHaveLength(2);
    expect(screen.queryByTestId("search-error")).not.toBeInTheDocument();
  });

  it("when the search is refused without a message, then the snackbar says the generic text", async () => {
    api.fail(SEARCH, { code: 400, message: "" });
    const { user } = await openSearch();
    await searchFor(user, { resource: "nobody@alpvault-demo.test" });
    await expectSnackbar("Something went wrong.", "error");
  });

  it("when the search fails otherwise, then its message shows with Retry, which asks again", async () => {
    api.failNetwork(SEARCH);
    const { user } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    const error = await screen.findByTestId("search-error");
    expect(error).toHaveTextContent("Unexpected error occurred");
    api.answer(SEARCH, mailAnswer([aMail(1)]));
    await user.click(within(error).getByRole("button", { name: "Retry" }));
    await screen.findByTestId("search-result");
  });
});

describe("opened for a resource", () => {
  it("when the route names a mailbox, then the card starts with its email and searches at once", async () => {
    await openSearch({ resourceId: "user-ada", resource: aResource() });
    expect(screen.getByTestId("search-resource")).toHaveTextContent(
      "Resource: Ada Brunner (admin@alpvault-demo.test)",
    );
    expect(screen.getByLabelText("Resource name or email")).toHaveValue("admin@alpvault-demo.test");
    await screen.findAllByTestId("search-result");
    expect(api.lastRequest(SEARCH).fields.resource).toEqual("admin@alpvault-demo.test");
  });

  it("when the route names a shared drive, then the Drive tab searches its name", async () => {
    api.answer(
      SEARCH,
      driveAnswer([aFile(1)], { resource: { resourceId: "drive-finance", name: "Finance", email: null } }),
    );
    await openSearch({ resourceId: "drive-finance", resource: aSharedDrive() });
    expect(screen.getByTestId("search-resource")).toHaveTextContent("Resource: Finance (Shared drive)");
    expect(screen.getByRole("tab", { name: "Drive" })).toHaveAttribute("aria-selected", "true");
    await screen.findByTestId("search-result");
    expect(api.lastRequest(SEARCH).fields).toMatchObject({ service: "drive", resource: "Finance" });
  });

  it("when the route names no known resource, then it says so and waits for a name", async () => {
    await openSearch({ resourceId: "no-such-resource" });
    expect(screen.getByTestId("search-resource")).toHaveTextContent("Resource: no-such-resource");
    expect(screen.getByTestId("search-resource-missing")).toHaveTextContent(
      "This resource is not among the organisation's resources: enter a name or email to search.",
    );
    expect(screen.getByLabelText("Resource name or email")).toHaveValue("");
    expect(api.requests(SEARCH)).toHaveLength(0);
  });
});

describe("exports from the results", () => {
  it("when Export all is chosen as MBOX, then the whole mailbox as of the search's date is exported and the snackbar confirms it", async () => {
    api.answer(START_EXPORT, anExport({ state: "pending" }));
    const { user } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test", date: "03-31-2026" });
    await screen.findAllByTestId("search-result");
    await user.click(screen.getByRole("button", { name: "Export all" }));
    await user.click(await screen.findByRole("menuitem", { name: "MBOX (one file)" }));
    await expectSnackbar(EXPORT_MESSAGES.started, "success");
    expect(api.lastRequest(START_EXPORT).body).toEqual({
      resourceId: "user-ada",
      service: "gmail",
      format: "mbox",
      date: "03-31-2026",
    });
  });

  it("when rows are selected and exported as .eml files, then only they are exported", async () => {
    api.answer(START_EXPORT, anExport({ state: "pending", format: "eml" }));
    const { user } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    await screen.findAllByTestId("search-result");
    await user.click(screen.getByRole("checkbox", { name: "Select Budget 2" }));
    await user.click(screen.getByRole("button", { name: "Export selected" }));
    await user.click(await screen.findByRole("menuitem", { name: ".eml files (ZIP)" }));
    await expectSnackbar(EXPORT_MESSAGES.started, "success");
    expect(api.lastRequest(START_EXPORT).body).toEqual({
      resourceId: "user-ada",
      service: "gmail",
      format: "eml",
      itemIds: ["mail-2"],
    });
  });

  it("when files are exported, then they go as a ZIP without a format to choose; a refusal shows as an error", async () => {
    api.answer(SEARCH, driveAnswer([aFile(1)]));
    api.fail(START_EXPORT, { code: 400, message: EXPORT_MESSAGES.nothingToExport });
    const { user } = await openSearch();
    await user.click(screen.getByRole("tab", { name: "Drive" }));
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    await screen.findByTestId("search-result");
    await user.click(screen.getByRole("button", { name: "Export all" }));
    await expectSnackbar(EXPORT_MESSAGES.nothingToExport, "error");
    expect(api.lastRequest(START_EXPORT).body).toMatchObject({ service: "drive", format: "zip" });
  });

  it("when nothing was found, then Export all is disabled", async () => {
    api.answer(SEARCH, mailAnswer([]));
    const { user } = await openSearch();
    await searchFor(user, { resource: "admin@alpvault-demo.test" });
    await screen.findByTestId("search-empty");
    expect(screen.getByRole("button", { name: "Export all" })).toBeDisabled();
  });
});
