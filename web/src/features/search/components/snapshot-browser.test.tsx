/**
 * Browsing a resource's backups at a date (docs/requirements.md#backup-activity) against the fake API: the
 * mailbox by label, the drive folder by folder with its trail, the day's rule text and what it asks, and
 * the selection recovered as of that day.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { addDays, type BrowseResponse } from "@alpvault/contracts/browse";
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
  browseAnswer,
  calendarAnswer,
  contactsAnswer,
  driveAnswer,
  mailAnswer,
} from "@/testing/fixtures/search";
import { TEST_ORGANIZATION_ID } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { SnapshotBrowser } from "./snapshot-browser";

const BROWSE = "POST /organizations/:organizationId/resources/:resourceId/browse";
const START_EXPORT = "POST /organizations/:organizationId/exports";

/** What a test changes of a browse answer: anything but its items. */
type BrowseChange = Partial<Omit<BrowseResponse, "service" | "results">>;

const mailbox = (change: BrowseChange = {}): BrowseResponse =>
  browseAnswer(mailAnswer([aMail(1), aMail(2)]), {
    labels: [
      { label: "INBOX", name: "Inbox", system: true },
      { label: "Label_1", name: "Projects", system: false },
    ],
    ...change,
  });

const drive = (folder: string, change: BrowseChange = {}): BrowseResponse =>
  browseAnswer(driveAnswer([aFile(1)]), {
    folder,
    folders:
      folder === ""
        ? [{ name: "My Drive", path: "My Drive" }]
        : [{ name: "Finance", path: `${folder}/Finance` }],
    ...change,
  });

/** A week of Ada's work calendar as the API answers it: an event, and a weekly series at an occurrence. */
/** A body field as text (absent or not text: undefined). */
const text = (fields: Record<string, unknown>, name: string): string | undefined => {
  const value = fields[name];
  return typeof value === "string" ? value : undefined;
};

const calendarWeek = (query: Record<string, unknown>): BrowseResponse =>
  browseAnswer(
    calendarAnswer([
      anEvent(1),
      anEvent(2, { summary: "Weekly sync", start: "2027-03-02T08:00:00.000Z", occurrenceOf: "series" }),
      anEvent(2, { summary: "Weekly sync", start: "2027-03-04T08:00:00.000Z", occurrenceOf: "series" }),
    ]),
    {
      calendars: [
        { calendar: "admin@alpvault-demo.test", name: "Ada Brunner" },
        { calendar: "work", name: "Work" },
      ],
      calendar: text(query, "calendar") ?? "admin@alpvault-demo.test",
      view: {
        span: text(query, "span") === "day" ? "day" : "week",
        from: text(query, "day") ?? "2027-03-01",
        to: addDays(text(query, "day") ?? "2027-03-01", text(query, "span") === "day" ? 1 : 7),
        timeZone: "Europe/Zurich",
        eventsAtLeast: false,
      },
    },
  );

const addressBook = (query: Record<string, unknown>): BrowseResponse =>
  browseAnswer(contactsAnswer([aContact(1)]), {
    groups: [
      { group: "all", name: "All contacts" },
      { group: "group:team", name: "Team" },
      { group: "other", name: "Other contacts" },
    ],
    group: text(query, "group") ?? "all",
  });

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer("GET /organizations/:organizationId/exports", { exports: [] });
  // As the API answers: without a service, a mailbox's Gmail.
  api.answer(BROWSE, (request) => {
    const answers: Record<string, () => BrowseResponse> = {
      drive: () => drive(text(request.fields, "folder") ?? ""),
      calendar: () => calendarWeek(request.fields),
      contacts: () => addressBook(request.fields),
    };
    return answers[text(request.fields, "service") ?? ""]?.() ?? mailbox();
  });
});

async function openBrowser(resource = aResource()) {
  const onRecover = jest.fn();
  const rendered = await renderWithProviders(
    <SnapshotBrowser
      organizationId={TEST_ORGANIZATION_ID}
      resourceId={resource.resourceId}
      resource={resource}
      onRecover={onRecover}
    />,
    { route: `/resources/${resource.resourceId}/browse` },
  );
  await screen.findAllByTestId("search-result");
  return { ...rendered, onRecover };
}

const lastQuery = () => api.lastRequest(BROWSE).fields;

/** The export started says so, and was asked for Ada's items with this body. */
async function expectExportStarted(body: Record<string, unknown>) {
  await expectSnackbar(EXPORT_MESSAGES.started, "success");
  expect(api.lastRequest(START_EXPORT).body).toEqual({ resourceId: "user-ada", ...body });
}

describe("browsing a mailbox", () => {
  it("when it opens, then the mailbox as backed up now shows by label, All mail first", async () => {
    await openBrowser();
    expect(
      screen.getByText(/See admin@alpvault-demo\.test as the backups held it on a day/),
    ).toBeInTheDocument();
    expect(screen.getByTestId("browse-as-of")).toHaveTextContent("As backed up now");
    expect(screen.getAllByTestId("browse-label").map((label) => label.textContent)).toEqual([
      "All mail",
      "Inbox",
      "Projects",
    ]);
    // The service is the API's to choose at first: a mailbox's Gmail.
    expect(lastQuery()).toEqual({ page: 1, pageSize: 25 });
    expect(api.lastRequest(BROWSE).params.resourceId).toBe("user-ada");
  });

  it("when a label is chosen, then its items are asked, and All mail asks for the whole mailbox again", async () => {
    const { user } = await openBrowser();
    await user.click(screen.getByRole("button", { name: "Projects" }));
    await waitFor(() => expect(lastQuery().label).toEqual("Label_1"));
    await user.click(screen.getByRole("button", { name: "All mail" }));
    await waitFor(() => expect(lastQuery().label).toBeUndefined());
  });

  it("when a day is typed that is not MM-DD-YYYY, then the rule's text shows and nothing is asked", async () => {
    const { user } = await openBrowser();
    const asked = api.requests(BROWSE).length;
    await fill(user, screen.getByRole("textbox", { name: "Date" }), "2026-03-31");
    await user.click(screen.getByRole("button", { name: "Show" }));
    expect(await screen.findByText(SEARCH_MESSAGES.invalidDate)).toBeInTheDocument();
    expect(api.requests(BROWSE)).toHaveLength(asked);
  });

  it("when a day in the future is typed, then its rule's text shows and nothing is asked", async () => {
    const { user } = await openBrowser();
    const asked = api.requests(BROWSE).length;
    await fill(user, screen.getByRole("textbox", { name: "Date" }), "12-31-2099");
    await user.click(screen.getByRole("button", { name: "Show" }));
    expect(await screen.findByText(SEARCH_MESSAGES.futureDate)).toBeInTheDocument();
    expect(api.requests(BROWSE)).toHaveLength(asked);
  });

  it("when a past day is shown, then it is asked and the page says it shows the backups at that day's end", async () => {
    api.answer(BROWSE, mailbox({ asOf: "2026-04-01T00:00:00.000Z" }));
    const { user } = await openBrowser();
    await fill(user, screen.getByRole("textbox", { name: "Date" }), "03-31-2026");
    await user.click(screen.getByRole("button", { name: "Show" }));
    await waitFor(() =>
      expect(screen.getByTestId("browse-as-of")).toHaveTextContent(
        "As the backups held it at the end of March 31, 2026 (UTC)",
      ),
    );
    expect(lastQuery().date).toEqual("03-31-2026");
  });

  it("when items are selected at a day and recovered, then the recovery gets them as held that day", async () => {
    const { user, onRecover } = await openBrowser();
    await fill(user, screen.getByRole("textbox", { name: "Date" }), "03-31-2026");
    await user.click(screen.getByRole("button", { name: "Show" }));
    await waitFor(() => expect(lastQuery().date).toEqual("03-31-2026"));
    await user.click(await screen.findByRole("checkbox", { name: "Select Budget 2" }));
    await user.click(screen.getByRole("button", { name: "Recover" }));
    expect(onRecover).toHaveBeenCalledWith({
      resourceId: "user-ada",
      resourceName: "Ada Brunner (admin@alpvault-demo.test)",
      services: ["gmail"],
      itemIds: ["mail-2"],
      date: "03-31-2026",
    });
  });

  it("when the browse fails, then its message shows", async () => {
    api.fail(BROWSE, { code: 400, message: "The label must be one of the mailbox's labels" });
    await renderWithProviders(
      <SnapshotBrowser
        organizationId={TEST_ORGANIZATION_ID}
        resourceId="user-ada"
        resource={aResource()}
        onRecover={jest.fn()}
      />,
    );
    expect(await screen.findByText("The label must be one of the mailbox's labels")).toBeInTheDocument();
  });
});

describe("browsing a drive", () => {
  it("when Drive is chosen, then the top shows the drives' roots, a folder opens with its trail back to the top", async () => {
    const { user } = await openBrowser();
    await user.click(screen.getByRole("button", { name: "Drive" }));
    await waitFor(() => expect(lastQuery()).toEqual({ service: "drive", page: 1, pageSize: 25 }));
    await user.click(await screen.findByRole("button", { name: "My Drive" }));
    await waitFor(() => expect(lastQuery().folder).toEqual("My Drive"));
    await user.click(await screen.findByRole("button", { name: "Finance" }));
    await waitFor(() => expect(lastQuery().folder).toEqual("My Drive/Finance"));
    const trail = screen.getByRole("navigation", { name: "Folder path" });
    expect(
      within(trail)
        .getAllByRole("button")
        .map((crumb) => crumb.textContent),
    ).toEqual(["All drives", "/ My Drive", "/ Finance"]);
    expect(within(trail).getByRole("button", { name: "/ Finance" })).toHaveAttribute(
      "aria-current",
      "location",
    );
    await user.click(within(trail).getByRole("button", { name: "All drives" }));
    await waitFor(() => expect(lastQuery().folder).toBeUndefined());
  });

  it("when a shared drive is browsed, then there is no choice of service and a folder without sub-folders says so", async () => {
    api.answer(BROWSE, drive("Finance", { folders: [], foldersAtLeast: false }));
    await openBrowser(aSharedDrive());
    expect(screen.queryByRole("button", { name: "Gmail" })).not.toBeInTheDocument();
    expect(screen.getByText("No folders here.")).toBeInTheDocument();
    expect(api.lastRequest(BROWSE).fields.service).toBeUndefined();
    expect(screen.getByRole("navigation", { name: "Folder path" })).toBeInTheDocument();
  });

  it("when a folder has more sub-folders than listed, then it says to narrow down", async () => {
    api.answer(BROWSE, drive("", { foldersAtLeast: true }));
    await openBrowser(aSharedDrive());
    expect(
      screen.getByText("More folders than shown: open a folder above to narrow down."),
    ).toBeInTheDocument();
  });
});

describe("exporting what the browse shows", () => {
  it("when a label is open, then Export all says it exports that label and asks for the label's items at the day", async () => {
    api.answer(START_EXPORT, anExport({ state: "pending", within: "Projects" }));
    const { user } = await openBrowser();
    expect(screen.getByRole("button", { name: "Export all" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Projects" }));
    await waitFor(() => expect(lastQuery().label).toEqual("Label_1"));
    await user.click(await screen.findByRole("button", { name: "Export all of Projects" }));
    await user.click(await screen.findByRole("menuitem", { name: "MBOX (one file)" }));
    await expectExportStarted({
      service: "gmail",
      format: "mbox",
      label: "Label_1",
    });
  });

  it("when a folder is open, then Export all says it exports that folder's files and asks for them", async () => {
    api.answer(
      START_EXPORT,
      anExport({ state: "pending", service: "drive", format: "zip", within: "My Drive" }),
    );
    const { user } = await openBrowser();
    await user.click(screen.getByRole("button", { name: "Drive" }));
    await user.click(await screen.findByRole("button", { name: "My Drive" }));
    await waitFor(() => expect(lastQuery().folder).toEqual("My Drive"));
    await user.click(await screen.findByRole("button", { name: "Export all of My Drive" }));
    await expectExportStarted({
      service: "drive",
      format: "zip",
      folder: "My Drive",
    });
  });
});

describe("browsing a calendar", () => {
  it("when Calendar is chosen, then its primary calendar's week shows, a series at each occurrence, and the days go back and forth by week or day", async () => {
    const { user } = await openBrowser();
    await user.click(screen.getByRole("button", { name: "Calendars" }));
    await waitFor(() => expect(lastQuery()).toEqual({ service: "calendar", page: 1, pageSize: 25 }));
    expect(await screen.findByTestId("browse-days")).toHaveTextContent(
      "Monday, March 1, 2027 – Sunday, March 7, 2027",
    );
    expect(screen.getByText("Days as in Europe/Zurich, the calendar's time zone")).toBeInTheDocument();
    const rows = screen.getAllByTestId("search-result");
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText("Work · recurring: recovered whole")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Ada Brunner" })).toHaveAttribute("aria-current", "location");

    await user.click(screen.getByRole("button", { name: "Next week" }));
    await waitFor(() => expect(lastQuery().day).toEqual("2027-03-08"));
    await user.click(screen.getByRole("button", { name: "Day" }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ span: "day", day: "2027-03-08" }));
    await user.click(await screen.findByRole("button", { name: "Previous day" }));
    await waitFor(() => expect(lastQuery().day).toEqual("2027-03-07"));
    await user.click(screen.getByRole("button", { name: "Today" }));
    await waitFor(() => expect(lastQuery().day).toBeUndefined());
    await user.click(screen.getByRole("button", { name: "Work" }));
    await waitFor(() => expect(lastQuery().calendar).toEqual("work"));
  });

  it("when a series' occurrence is selected, then the recovery gets the series, and Export all exports the calendar", async () => {
    api.answer(
      START_EXPORT,
      anExport({ state: "pending", service: "calendar", format: "ics", within: "Ada Brunner" }),
    );
    const { user, onRecover } = await openBrowser();
    await user.click(screen.getByRole("button", { name: "Calendars" }));
    const [first] = await screen.findAllByRole("checkbox", { name: "Select Weekly sync" });
    await user.click(first!);
    // Both occurrences are the one series.
    expect(
      screen
        .getAllByRole("checkbox", { name: "Select Weekly sync" })
        .map((box) => (box as HTMLInputElement).checked),
    ).toEqual([true, true]);
    await user.click(screen.getByRole("button", { name: "Recover" }));
    expect(onRecover).toHaveBeenCalledWith(
      expect.objectContaining({ services: ["calendar"], itemIds: ["event:work/e2"] }),
    );
    // Without a selection, Export all takes the calendar browsed.
    await user.click(screen.getAllByRole("checkbox", { name: "Select Weekly sync" })[1]!);
    await user.click(screen.getByRole("button", { name: "Export all of Ada Brunner" }));
    await expectExportStarted({
      service: "calendar",
      format: "ics",
      calendar: "admin@alpvault-demo.test",
    });
  });
});

describe("browsing contacts", () => {
  it("when Contacts is chosen, then all contacts show, a group is chosen, and Export all exports the group", async () => {
    api.answer(
      START_EXPORT,
      anExport({ state: "pending", service: "contacts", format: "vcf", within: "Team" }),
    );
    const { user } = await openBrowser();
    await user.click(screen.getByRole("button", { name: "Contacts" }));
    await waitFor(() => expect(lastQuery().service).toEqual("contacts"));
    expect((await screen.findAllByTestId("browse-group")).map((group) => group.textContent)).toEqual([
      "All contacts",
      "Team",
      "Other contacts",
    ]);
    await user.click(screen.getByRole("button", { name: "Team" }));
    await waitFor(() => expect(lastQuery().group).toEqual("group:team"));
    await user.click(await screen.findByRole("button", { name: "Export all of Team" }));
    await expectExportStarted({
      service: "contacts",
      format: "vcf",
      group: "group:team",
    });
  });
});
