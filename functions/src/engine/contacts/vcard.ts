/**
 * Backed-up contacts as vCard 4.0 (RFC 6350, https://www.rfc-editor.org/rfc/rfc6350), one VCARD per
 * contact or other contact, for an export people open in any address book.
 *
 * Written here rather than with a library: those on npm that write vCard 4.0 either escape no values
 * (`vcf`) or fold lines by UTF-16 code units, so a line with "Zürich" or an emoji breaks the 75-octet
 * rule or splits a character (`vcard4`). What this writer does, by the RFC:
 * - §3.2 lines of at most 75 octets, CRLF, folded before an octet that would pass it, never inside a
 *   UTF-8 character; a continuation line starts with one space;
 * - §3.4 text values escape backslash, comma and newline; a semicolon is escaped in the fields of the
 *   compound properties (N, ADR, ORG) only (the RFC lets the others be: readers such as ical.js keep
 *   an escaped one verbatim in plain text); URIs are written as they are;
 * - parameter values with RFC 6868's caret escaping, quoted when they hold `:`, `;` or `,`; a TYPE that
 *   is no token of the RFC's (Google's custom labels) becomes an `x-` name.
 *
 * Google's fields: FN (the display name), N, NICKNAME, EMAIL, TEL, ADR, ORG and TITLE, BDAY, ANNIVERSARY
 * (events of that type), NOTE (the biography), URL, RELATED (as text), PHOTO (a `data:` URI of the
 * backed-up bytes), CATEGORIES (the names of its user groups, and Starred), custom fields as
 * `X-GOOGLE-CUSTOM-FIELD;VALUE=text;X-KEY=<key>:<value>`, REV (the contact's last update) and UID (its
 * resource name, as text). Other events, instant messaging, genders and the rest of Google's fields
 * have no place here: the backup keeps them, and a restore brings them back.
 */
import type { people_v1 } from "@googleapis/people";
import { PHOTO_FIELD, type BackedUpGroup, type BackedUpPerson, type ContactsEntry } from "./people";
import { personName } from "./search-fields";

const CRLF = "\r\n";
const MAX_LINE_OCTETS = 75;

/** §3.4: backslash, comma and newline in a text value; a semicolon too in a compound property's field. */
export function escapeText(value: string, compound = false): string {
  const escaped = value
    .replace(/\\/g, "\\\\")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
  return compound ? escaped.replace(/;/g, "\\;") : escaped;
}

/** A parameter value: RFC 6868's `^^`, `^n`, `^'`; quoted when it holds a separator. */
export function paramValue(value: string): string {
  const escaped = value
    .replace(/\^/g, "^^")
    .replace(/\r\n|\r|\n/g, "^n")
    .replace(/"/g, "^'");
  return /[:;,]/.test(escaped) ? `"${escaped}"` : escaped;
}

/** §3.2: a content line folded at 75 octets, never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    if (octets + size > MAX_LINE_OCTETS) {
      out.push(current);
      // The space of the continuation line is one of its 75 octets.
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join(CRLF);
}

/** One property: name, parameters (already valid values), value (already escaped). */
function property(name: string, value: string, params: [string, string | undefined][] = []): string {
  const written = params
    .filter((param): param is [string, string] => param[1] !== undefined && param[1] !== "")
    .map(([key, paramValue]) => `;${key}=${paramValue}`)
    .join("");
  return foldLine(`${name}${written}:${value}`);
}

/** Google's type of an email, phone, address or URL as vCard TYPE values. */
const TYPES: Readonly<Record<string, string>> = {
  home: "home",
  work: "work",
  mobile: "cell",
  homeFax: "fax,home",
  workFax: "fax,work",
  otherFax: "fax",
  pager: "pager",
  workMobile: "cell,work",
  workPager: "pager,work",
  main: "voice",
  spouse: "spouse",
  child: "child",
  parent: "parent",
  friend: "friend",
};

/** A TYPE: the RFC's token for Google's type, an `x-` name for the user's own label, none for "other". */
function typeParam(type: string | null | undefined): string | undefined {
  if (!type || type === "other") return undefined;
  const known = TYPES[type];
  if (known) return known;
  const slug = type
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug ? `x-${slug}` : undefined;
}

const two = (value: number): string => String(value).padStart(2, "0");

/** A Google date as a vCard date (§4.3.1): `19800115`, `--0115` without a year, `1980` alone. */
export function vcardDate(date: people_v1.Schema$Date | undefined): string | undefined {
  if (!date) return undefined;
  const { year, month, day } = date;
  if (month && day) return `${year ? String(year).padStart(4, "0") : "--"}${two(month)}${two(day)}`;
  if (year) return String(year).padStart(4, "0");
  return undefined;
}

/** An ISO time as a vCard timestamp (§4.3.5): `20261130T093000Z`. */
function timestamp(iso: string | null | undefined): string | undefined {
  const time = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(time)) return undefined;
  return `${new Date(time).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
}

const text = (value: string | null | undefined): string => escapeText(value ?? "");
const field = (value: string | null | undefined): string => escapeText(value ?? "", true);

/** The names of a person's groups: its user groups' names, and Starred. */
function categories(person: BackedUpPerson, groupNames: ReadonlyMap<string, string>): string[] {
  return (person.memberships ?? []).flatMap((membership) => {
    const resourceName = membership.contactGroupMembership?.contactGroupResourceName ?? "";
    if (resourceName === "contactGroups/starred") return ["Starred"];
    const name = groupNames.get(resourceName);
    return name ? [name] : [];
  });
}

/** The identity lines: FN, N, NICKNAME. */
function nameLines(person: BackedUpPerson): string[] {
  const lines = [property("FN", text(personName(person)))];
  const name = person.names?.[0];
  if (name) {
    const parts = [
      name.familyName,
      name.givenName,
      name.middleName,
      name.honorificPrefix,
      name.honorificSuffix,
    ];
    lines.push(property("N", parts.map(field).join(";")));
  }
  for (const nickname of person.nicknames ?? [])
    if (nickname.value) lines.push(property("NICKNAME", text(nickname.value)));
  return lines;
}

/** How to reach the person: EMAIL, TEL, ADR, URL. */
function reachLines(person: BackedUpPerson): string[] {
  const lines: string[] = [];
  for (const email of person.emailAddresses ?? []) {
    if (email.value) lines.push(property("EMAIL", text(email.value), [["TYPE", typeParam(email.type)]]));
  }
  for (const phone of person.phoneNumbers ?? []) {
    if (phone.value) lines.push(property("TEL", text(phone.value), [["TYPE", typeParam(phone.type)]]));
  }
  for (const address of person.addresses ?? []) {
    const parts = [
      address.poBox,
      address.extendedAddress,
      address.streetAddress,
      address.city,
      address.region,
      address.postalCode,
      address.country,
    ];
    lines.push(property("ADR", parts.map(field).join(";"), [["TYPE", typeParam(address.type)]]));
  }
  for (const url of person.urls ?? []) {
    if (url.value) lines.push(property("URL", url.value, [["TYPE", typeParam(url.type)]]));
  }
  return lines;
}

/** Work, dates, notes, relations: ORG, TITLE, BDAY, ANNIVERSARY, NOTE, RELATED. */
function aboutLines(person: BackedUpPerson): string[] {
  const lines: string[] = [];
  for (const org of person.organizations ?? []) {
    if (org.name || org.department)
      lines.push(property("ORG", [org.name, org.department].map(field).join(";")));
    if (org.title) lines.push(property("TITLE", text(org.title)));
  }
  const birthday = person.birthdays?.[0];
  const bday = vcardDate(birthday?.date ?? undefined);
  if (bday) lines.push(property("BDAY", bday));
  else if (birthday?.text) lines.push(property("BDAY", text(birthday.text), [["VALUE", "text"]]));
  for (const event of person.events ?? []) {
    const date = event.type === "anniversary" ? vcardDate(event.date ?? undefined) : undefined;
    if (date) lines.push(property("ANNIVERSARY", date));
  }
  const note = person.biographies?.[0]?.value;
  if (note) lines.push(property("NOTE", text(note)));
  for (const relation of person.relations ?? []) {
    if (relation.person) {
      lines.push(
        property("RELATED", text(relation.person), [
          ["TYPE", typeParam(relation.type)],
          ["VALUE", "text"],
        ]),
      );
    }
  }
  return lines;
}

/** One contact as a VCARD. */
export function personVCard(
  person: BackedUpPerson,
  groupNames: ReadonlyMap<string, string> = new Map(),
): string {
  const lines = [
    "BEGIN:VCARD",
    "VERSION:4.0",
    ...nameLines(person),
    ...reachLines(person),
    ...aboutLines(person),
  ];
  const photo = person[PHOTO_FIELD];
  if (photo) lines.push(property("PHOTO", `data:${photo.contentType};base64,${photo.data}`));
  const groups = categories(person, groupNames);
  if (groups.length > 0) lines.push(property("CATEGORIES", groups.map(text).join(",")));
  for (const custom of person.userDefined ?? []) {
    lines.push(
      property("X-GOOGLE-CUSTOM-FIELD", text(custom.value), [
        // An x-name property's value type is unknown to readers unless said: text, so it is unescaped.
        ["VALUE", "text"],
        ["X-KEY", paramValue(custom.key ?? "")],
      ]),
    );
  }
  const rev = timestamp(person.metadata?.sources?.[0]?.updateTime);
  if (rev) lines.push(property("REV", rev));
  if (person.resourceName) lines.push(property("UID", text(person.resourceName), [["VALUE", "text"]]));
  lines.push("END:VCARD");
  return lines.join(CRLF) + CRLF;
}

/**
 * The contacts and other contacts of backed-up entries as one vCard file; the group entries among them
 * name the groups (`CATEGORIES`), as do `groupNames` (resource name → name) for groups not among them.
 */
export function contactsVCard(
  entries: readonly ContactsEntry[],
  groupNames: Readonly<Record<string, string>> = {},
): string {
  const names = new Map(Object.entries(groupNames));
  const persons: BackedUpPerson[] = [];
  for (const entry of entries) {
    const content = JSON.parse(entry.content.toString("utf8")) as BackedUpPerson & BackedUpGroup;
    if (entry.metadata.contactEntry === "group") {
      if (content.resourceName) names.set(content.resourceName, content.name ?? content.formattedName ?? "");
    } else persons.push(content);
  }
  return persons.map((person) => personVCard(person, names)).join("");
}
