import type { SearchFields } from "../sources/search-fields";
import { catalogIndex, TOKEN_FIELDS } from "./catalog-index";
import { searchToken } from "./catalog-seal";
import { deriveKeys, newDataKey } from "./keys";

const keys = deriveKeys(newDataKey());
const MARKER = "zq7marker";

const mail: SearchFields = {
  kind: "mail",
  display: { subject: `Budget ${MARKER}`, fromName: "Vreni Muster" },
  subject: `budget ${MARKER}`,
  fromName: "vreni muster",
  fromEmail: "vreni@example.ch",
  to: ["hans@example.ch"],
  date: "2026-11-02T09:00:00.000Z",
  labels: ["inbox", "projects"],
  size: 2048,
  keywords: ["budget", MARKER, "vreni", "example", "ch"],
};
const file: SearchFields = {
  kind: "drive",
  display: { name: `${MARKER}.docx`, path: "My Drive/Finance" },
  name: `${MARKER}.docx`,
  path: "my drive/finance",
  mimeType: "application/vnd.google-apps.document",
  createdBy: "vreni@example.ch",
  modifiedTime: "2026-11-03T10:00:00.000Z",
  size: 4096,
  googleId: "1AbC",
  keywords: [MARKER, "docx"],
};
const event: SearchFields = {
  kind: "calendar",
  entry: "event",
  summary: `weekly ${MARKER}`,
  organizer: "vreni@example.ch",
  attendees: ["hans@example.ch"],
  start: "2027-03-02T08:00:00.000Z",
  end: "2027-03-02T09:00:00.000Z",
  calendarId: "vreni@example.ch",
  recurrence: ["RRULE:FREQ=WEEKLY"],
  recurring: true,
  keywords: ["weekly", MARKER],
};
const contact: SearchFields = {
  kind: "contact",
  entry: "contact",
  name: `vreni ${MARKER}`,
  emails: ["vreni@example.ch"],
  phones: ["+41 44 123 45 67", "41441234567"],
  groups: ["team"],
  keywords: ["vreni", MARKER],
};

describe("the clear index of a v2 catalog item", () => {
  it("when any item's index is made, then it holds no word, name, address or phone number of the item", () => {
    for (const search of [mail, file, event, contact]) {
      const shown = JSON.stringify(catalogIndex(keys, search));
      for (const secret of [MARKER, "vreni", "example", "hans", "finance", "projects", "team", "1234567"]) {
        expect({ kind: search.kind, has: shown.includes(secret) }).toEqual({ kind: search.kind, has: false });
      }
    }
  });

  it("when a mail is indexed, then its words and labels are tokens a search computes the same way, its date and size clear", () => {
    const index = catalogIndex(keys, mail);
    expect(index.key).toBe(keys.dataKeyId);
    expect(index.words).toContain(searchToken(keys, TOKEN_FIELDS.word, "budget"));
    expect(index.words).toHaveLength(mail.keywords.length);
    expect(index.labels).toEqual([
      searchToken(keys, TOKEN_FIELDS.label, "inbox"),
      searchToken(keys, TOKEN_FIELDS.label, "projects"),
    ]);
    expect(index).toMatchObject({ date: mail.date, size: 2048 });
  });

  it("when a file, an event and a contact are indexed, then their places are tokens and their dates and marks clear", () => {
    expect(catalogIndex(keys, file)).toMatchObject({
      path: searchToken(keys, TOKEN_FIELDS.path, "my drive/finance"),
      modified: file.modifiedTime,
      size: 4096,
    });
    expect(catalogIndex(keys, event)).toMatchObject({
      calendar: searchToken(keys, TOKEN_FIELDS.calendar, "vreni@example.ch"),
      start: "2027-03-02T08:00:00.000Z",
      end: "2027-03-02T09:00:00.000Z",
      entry: "event",
      recurring: true,
    });
    expect(catalogIndex(keys, event)).not.toHaveProperty("long");
    expect(catalogIndex(keys, contact)).toMatchObject({
      groups: [searchToken(keys, TOKEN_FIELDS.group, "team")],
      entry: "contact",
    });
  });

  it("when the same item is indexed under another data key, then no token is the same", () => {
    const other = catalogIndex(deriveKeys(newDataKey()), mail);
    const first = catalogIndex(keys, mail);
    expect(other.words.filter((token) => first.words.includes(token))).toEqual([]);
    expect(other.key).not.toBe(first.key);
  });
});
