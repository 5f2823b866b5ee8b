import { BROWSE_MESSAGES } from "@alpvault/contracts/browse";
import { SEARCH_MESSAGES } from "@alpvault/contracts/search";
import { browsedService, parseBrowseQuery } from "./browse";

describe("a browse's query", () => {
  it("when nothing is given, then it is the resource's first service now, the first page of 25, at the top", () => {
    expect(parseBrowseQuery({})).toEqual({ folder: "", page: 1, pageSize: 25 });
  });

  it.each([
    { browsed: "a mailbox", type: "email", query: {}, service: "gmail" },
    { browsed: "a shared drive", type: "shared_drive", query: {}, service: "drive" },
    { browsed: "a mailbox's folder", type: "email", query: { folder: "My Drive" }, service: "drive" },
    { browsed: "a mailbox's label", type: "email", query: { label: "INBOX" }, service: "gmail" },
    { browsed: "a mailbox's Drive", type: "email", query: { service: "drive" }, service: "drive" },
  ] as const)("when $browsed is asked for, then it is browsed by $service", ({ type, query, service }) => {
    expect(browsedService(parseBrowseQuery(query), type)).toBe(service);
  });

  it("when a day, a folder with a trailing slash and a page are given, then the day ends the browse and the folder is trimmed", () => {
    expect(
      parseBrowseQuery({
        service: "drive",
        date: "03-02-2026",
        folder: "My Drive/Reports/",
        page: "2",
        pageSize: "10",
      }),
    ).toEqual({
      service: "drive",
      asOf: "2026-03-03T00:00:00.000Z",
      folder: "My Drive/Reports",
      page: 2,
      pageSize: 10,
    });
  });

  it.each([
    ["the service is coming soon", { service: "chat" }, BROWSE_MESSAGES.unknownService],
    ["the service is not browsed yet", { service: "calendar" }, BROWSE_MESSAGES.unknownService],
    ["the day does not exist", { date: "02-30-2026" }, SEARCH_MESSAGES.invalidDate],
    ["the day is in the future", { date: "12-31-2099" }, SEARCH_MESSAGES.futureDate],
    ["Drive is asked for by label", { service: "drive", label: "INBOX" }, BROWSE_MESSAGES.labelForMail],
    [
      "Gmail is asked for by folder",
      { service: "gmail", folder: "My Drive" },
      BROWSE_MESSAGES.folderForDrive,
    ],
    ["the label is blank", { label: " " }, BROWSE_MESSAGES.invalidLabel],
    [
      "the folder is over 1,000 characters",
      { service: "drive", folder: "x".repeat(1001) },
      BROWSE_MESSAGES.invalidFolder,
    ],
  ])("when %s, then the query is refused with its text", (_case, query, message) => {
    expect(() => parseBrowseQuery(query)).toThrow(message);
  });

  it("when a parameter is repeated, then it is refused", () => {
    expect(() => parseBrowseQuery({ label: ["INBOX", "SENT"] })).toThrow();
  });
});
