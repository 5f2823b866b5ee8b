/**
 * The search fields of a contact, an other contact or a contact group (docs/backup-format.md §6): the
 * name, addresses and phone numbers people search by, lower-cased and bounded; phone numbers also as
 * their digits alone, so "+41 44 000 0001" is found by "41440000001" as well as written.
 */
import type { people_v1 } from "@googleapis/people";
import { MAX_RECIPIENTS, bounded, displayText, keywordsOf } from "../sources/search-text";
import type { ContactSearchFields } from "../sources/source";

/** The name a person is shown by: Google's display name, else the parts of the name, else an address. */
export function personName(person: people_v1.Schema$Person): string {
  const name = person.names?.[0];
  const written =
    name?.displayName ??
    name?.unstructuredName ??
    [name?.givenName, name?.familyName].filter((part): part is string => Boolean(part)).join(" ");
  if (written) return written;
  return (
    person.emailAddresses?.[0]?.value ??
    person.organizations?.[0]?.name ??
    person.phoneNumbers?.[0]?.value ??
    ""
  );
}

function values(items: ({ value?: string | null } | undefined)[] | undefined): string[] {
  return (items ?? []).flatMap((item) => (item?.value ? [item.value] : []));
}

function distinctBounded(texts: string[]): string[] {
  return [...new Set(texts.map((text) => bounded(text)).filter(Boolean))].slice(0, MAX_RECIPIENTS);
}

/** The search fields of a contact or other contact; `groups` are the names of its contact groups. */
export function personSearchFields(
  person: people_v1.Schema$Person,
  entry: "contact" | "other-contact",
  groups: string[],
): ContactSearchFields {
  const name = personName(person);
  const emails = values(person.emailAddresses ?? undefined);
  const phones = values(person.phoneNumbers ?? undefined);
  const digits = phones.map((phone) => phone.replace(/\D/g, "")).filter(Boolean);
  const organizations = (person.organizations ?? []).flatMap((org) =>
    [org.name, org.title, org.department].filter((text): text is string => Boolean(text)),
  );
  return {
    kind: "contact",
    display: {
      name: displayText(name),
      email: displayText(emails[0] ?? ""),
      groups: [...new Set(groups.map((group) => displayText(group)).filter(Boolean))].slice(
        0,
        MAX_RECIPIENTS,
      ),
    },
    entry,
    name: bounded(name),
    emails: distinctBounded(emails),
    phones: distinctBounded([...phones, ...digits]),
    groups: distinctBounded(groups),
    keywords: keywordsOf([
      name,
      ...values(person.nicknames ?? undefined),
      ...emails,
      ...organizations,
      ...groups,
    ]),
  };
}

/** The name of a contact group as people see it (a system group's formatted name). */
export function groupName(group: people_v1.Schema$ContactGroup): string {
  return group.formattedName ?? group.name ?? "";
}

export function groupSearchFields(group: people_v1.Schema$ContactGroup): ContactSearchFields {
  const name = groupName(group);
  return {
    kind: "contact",
    display: { name: displayText(name), email: "" },
    entry: "group",
    name: bounded(name),
    emails: [],
    phones: [],
    groups: [],
    keywords: keywordsOf([name]),
  };
}
