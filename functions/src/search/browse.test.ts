import { BROWSE_MESSAGES } from "@alpvault/contracts/browse";
import { SEARCH_MESSAGES } from "@alpvault/contracts/search";
import { browsedService, parseBrowseQuery } from "./browse";
import { calendarBrowser } from "./browse-calendar";
import { contactsBrowser } from "./browse-contacts";
import { driveBrowser } from "./browse-drive";
import { mailBrowser } from "./browse-mail";

describe("a browse's query", () => {
  it("when nothing is given, then it is the resource's first service now, the first page of 25", () => {
    expect(parseBrowseQuery({})).toEqual({ page: 1, pageSize: 25 });
  });

  it.each([
    { browsed: "a mailbox", type: "email", query: {}, service: "gmail" },
    { browsed: "a shared drive", type: "shared_drive", query: {}, service: "drive" },
    { browsed: "a mailbox's folder", type: "email", query: { folder: "My Drive" }, service: "drive" },
    { browsed: "a mailbox's label", type: "email", query: { label: "INBOX" }, service: "gmail" },
    { browsed: "a mailbox's Drive", type: "email", query: { service: "drive" }, service: "drive" },
    { browsed: "a calendar's week", type: "email", query: { day: "2026-12-01" }, service: "calendar" },
    { browsed: "a contact group", type: "email", query: { group: "other" }, service: "contacts" },
  ] as const)("when $browsed is asked for, then it is browsed by $service", ({ type, query, service }) => {
    expect(browsedService(parseBrowseQuery(query), type)).toBe(service);
  });

  it("when a day and a page are given, then the day ends the browse", () => {
    expect(
      parseBrowseQuery({
        service: "drive",
        date: "03-02-2026",
        folder: "My Drive/Reports/",
        page: "2",
        pageSize: "10",
      }),
    ).toEqual({ service: "drive", asOf: "2026-03-03T00:00:00.000Z", page: 2, pageSize: 10 });
  });

  it("when a folder ends with a slash, then the place is the folder without it", () => {
    expect(driveBrowser.open({ folder: "My Drive/Reports/" }).key).toBe("my drive/reports");
  });

  it("when a calendar is browsed without a span, then it is its week", () => {
    expect(calendarBrowser.open({ calendar: "ada@example.com" }).key).toEqual([
      "ada@example.com",
      null,
      "week",
    ]);
  });

  it("when a contact group is named, then it is found by its name as search keeps it", () => {
    expect(contactsBrowser.open({ group: "group:Friends" }).key).toBe("group:friends");
    expect(contactsBrowser.open({}).key).toBe("all");
  });

  it.each([
    ["the service is coming soon", { service: "chat" }, BROWSE_MESSAGES.unknownService],
    ["the day does not exist", { date: "02-30-2026" }, SEARCH_MESSAGES.invalidDate],
    ["the day is in the future", { date: "12-31-2099" }, SEARCH_MESSAGES.futureDate],
    ["Drive is asked for by label", { service: "drive", label: "INBOX" }, BROWSE_MESSAGES.labelForMail],
    [
      "Gmail is asked for by folder",
      { service: "gmail", folder: "My Drive" },
      BROWSE_MESSAGES.folderForDrive,
    ],
    [
      "Contacts is asked for by a day",
      { service: "contacts", day: "2026-12-01" },
      BROWSE_MESSAGES.placeForCalendar,
    ],
    [
      "Calendar is asked for by group",
      { service: "calendar", group: "all" },
      BROWSE_MESSAGES.groupForContacts,
    ],
  ])("when %s, then the query is refused with its text", (_case, query, message) => {
    expect(() => parseBrowseQuery(query)).toThrow(message);
  });

  it.each([
    ["the label is blank", { label: " " }, BROWSE_MESSAGES.invalidLabel, "gmail"],
    [
      "the folder is over 1,000 characters",
      { folder: "x".repeat(1001) },
      BROWSE_MESSAGES.invalidFolder,
      "drive",
    ],
    ["the day is not a day", { day: "2026-02-30" }, BROWSE_MESSAGES.invalidDay, "calendar"],
    [
      "the day is written as the search writes it",
      { day: "12-01-2026" },
      BROWSE_MESSAGES.invalidDay,
      "calendar",
    ],
    ["the span is a month", { span: "month" }, BROWSE_MESSAGES.invalidSpan, "calendar"],
    ["the calendar is blank", { calendar: "  " }, BROWSE_MESSAGES.invalidCalendar, "calendar"],
    ["the group is not a group", { group: "friends" }, BROWSE_MESSAGES.invalidGroup, "contacts"],
    ["the group has no name", { group: "group:" }, BROWSE_MESSAGES.invalidGroup, "contacts"],
  ] as const)("when %s, then the place is refused with its text", (_case, query, message, service) => {
    const browsers = {
      gmail: mailBrowser,
      drive: driveBrowser,
      calendar: calendarBrowser,
      contacts: contactsBrowser,
    };
    expect(() => browsers[service].open(query)).toThrow(message);
  });

  it("when a parameter is repeated, then it is refused", () => {
    expect(() => parseBrowseQuery({ label: ["INBOX", "SENT"] })).toThrow();
  });
});
