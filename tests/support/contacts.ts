/**
 * What the Contacts engine tests share: users of the in-process Workspace emulator with the People scopes
 * granted, contacts with every field Google keeps (added as the user would have made them, through the
 * emulator's admin API), the official People client built as the engine builds it, and a Contacts source
 * on the real quota-aware caller with the test's clock.
 */
import { people_v1 } from "@googleapis/people";
import {
  DEFAULT_GRANTED_SCOPES,
  type Harness,
  type ManualClock,
  SCOPES,
  TEST_DOMAIN,
} from "../../emulators/workspace/src/index";
import { ContactsSource } from "../../functions/src/engine/contacts/source";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import type { ChangeBatch, FetchedItem, Source } from "../../functions/src/engine/sources/source";
import { bytesOf, collect } from "./engine-harness";

export const MINUTE = 60_000;
/** People shows a write to sync requests after up to 5 minutes (the emulator's default delay). */
export const PROPAGATED = 6 * MINUTE;

/** A 1×1 PNG and a 1×1 GIF: images People takes as contact photos. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
export const GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

export const PEOPLE_SCOPES = [SCOPES.contacts, SCOPES.contactsReadonly, SCOPES.contactsOtherReadonly];

/** Installs the app with the People scopes too (the harness grants Gmail, Drive and Directory only). */
export async function grantPeopleScopes(harness: Harness): Promise<void> {
  const { status } = await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:install`, {
    scopes: [...DEFAULT_GRANTED_SCOPES, ...PEOPLE_SCOPES],
  });
  expect(status).toBe(200);
}

let users = 0;

/** A new user of the test domain. */
export async function newUser(harness: Harness, prefix: string): Promise<string> {
  users += 1;
  const email = `${prefix}${users}@${TEST_DOMAIN}`;
  const created = await harness.admin("POST", "/users", {
    email,
    givenName: "Contacts",
    familyName: `User${users}`,
  });
  expect(created.status).toBe(200);
  return email;
}

/** The user's People client as the engine builds it: retries belong to the caller alone. */
export function peopleClient(harness: Harness, user: string): people_v1.People {
  return new people_v1.People(
    googleClientOptions({ auth: harness.jwt(user, PEOPLE_SCOPES), rootUrl: `${harness.url}/` }),
  );
}

/** The quota-aware caller on the test's clock, with quick and even retries. */
export function testCaller(clock: ManualClock): GoogleCaller {
  return quotaAwareCaller({ clock, retry: { baseDelayMs: 1_000, maxDelayMs: 16_000 }, random: () => 0.5 });
}

/** A Contacts source for `user` whose photos are downloaded from the emulator. */
export function contactsSource(
  harness: Harness,
  user: string,
  caller: GoogleCaller,
  options: { pageSize?: number; fetchPhoto?: (url: string) => Promise<Buffer> } = {},
): ContactsSource {
  return new ContactsSource({ people: peopleClient(harness, user), user, caller, ...options });
}

/** A contact with every field a contact keeps, the awkward characters of vCard and CSV in its texts. */
export function richPerson(index: number, groups: string[] = []): people_v1.Schema$Person {
  const n = String(index).padStart(4, "0");
  return {
    names: [
      {
        givenName: `Zoë${index}`,
        familyName: `Müller-Łukasz, Jr; ${index}`,
        middleName: "Ann",
        honorificPrefix: "Dr.",
        honorificSuffix: "PhD",
        displayName: `Dr. Zoë${index} Ann Müller-Łukasz, Jr; ${index} PhD`,
      },
    ],
    nicknames: [{ value: `Zo${index}` }],
    emailAddresses: [
      { value: `Zoe${index}@Example.NET`, type: "work" },
      { value: `zoe${index}.home@example.org`, type: "home" },
    ],
    phoneNumbers: [
      { value: `+41 44 000 ${n}`, type: "mobile" },
      { value: `(044) 123-${n}`, type: "work" },
    ],
    addresses: [
      {
        type: "home",
        poBox: "PO 7",
        streetAddress: `${index} Bahnhofstrasse; Hof 2, links`,
        extendedAddress: "3rd floor",
        city: "Zürich",
        region: "ZH",
        postalCode: "8001",
        country: "Switzerland",
      },
    ],
    organizations: [{ name: `Example; AG ${index}`, department: "R&D", title: "Engineer, senior" }],
    birthdays: [{ date: { year: 1980, month: 1 + (index % 12), day: 1 + (index % 28) } }],
    biographies: [
      {
        value: `Notes about contact ${index}: a comma, a semicolon; a backslash \\ and a long line that goes on well beyond seventy-five octets, with ünïcödé 🦊 in it.\nSecond line.`,
        contentType: "TEXT_PLAIN",
      },
    ],
    urls: [{ value: `https://example.net/people/${index}?a=1,b=2`, type: "homePage" }],
    userDefined: [
      { key: "customer-id", value: `C-${index}` },
      { key: "Account manager; region", value: "Ada, EMEA" },
    ],
    relations: [{ person: `Sam${index}, partner`, type: "spouse" }],
    events: [{ date: { year: 2010, month: 6, day: 12 }, type: "anniversary" }],
    ...(groups.length > 0
      ? {
          memberships: groups.map((group) => ({
            contactGroupMembership: { contactGroupResourceName: `contactGroups/${group}` },
          })),
        }
      : {}),
  };
}

/** Adds contacts (and other contacts) to a user as the user would have made them; their resource names. */
export async function addContacts(
  harness: Harness,
  user: string,
  contacts: { person: people_v1.Schema$Person; photo?: Buffer; other?: boolean }[],
): Promise<string[]> {
  const answer = await harness.admin<{ contacts: { resourceName: string }[] }>(
    "POST",
    `/users/${user}/people/contacts`,
    {
      contacts: contacts.map(({ person, photo, other }) => ({
        person,
        ...(photo ? { photoBase64: photo.toString("base64") } : {}),
        ...(other ? { other: true } : {}),
      })),
    },
  );
  expect(answer.status).toBe(200);
  return answer.body.contacts.map((contact) => contact.resourceName);
}

/** A user contact group; its id (`contactGroups/<id>`). */
export async function addGroup(harness: Harness, user: string, name: string): Promise<string> {
  const answer = await harness.admin<{ resourceName: string }>("POST", `/users/${user}/people/groups`, {
    name,
  });
  expect(answer.status).toBe(200);
  return answer.body.resourceName.replace(/^contactGroups\//, "");
}

/** A backed-up entry as a restore or an export reads it: the version's metadata and content bytes. */
export interface BackedUpEntry {
  itemKey: string;
  versionKey: string;
  contentKey: string;
  metadata: FetchedItem["metadata"];
  search: FetchedItem["search"];
  content: Buffer;
}

/** Backs a stream up the way the engine would (every upsert fetched with the listing's hint). */
export async function backUp(
  source: Source,
  cursor: string | null = null,
): Promise<{
  entries: Map<string, BackedUpEntry>;
  deletes: string[];
  batches: ChangeBatch[];
  cursor: string;
}> {
  const entries = new Map<string, BackedUpEntry>();
  const deletes: string[] = [];
  const batches = await collect(source.listChanges(cursor));
  for (const batch of batches) {
    for (const change of batch.changes) {
      if (change.type === "delete") {
        deletes.push(change.itemKey);
        continue;
      }
      if (change.type !== "upsert") continue;
      const fetched = await source.fetch(change.item);
      entries.set(fetched.itemKey, {
        itemKey: fetched.itemKey,
        versionKey: fetched.versionKey,
        contentKey: fetched.contentKey,
        metadata: fetched.metadata,
        search: fetched.search,
        content: await bytesOf(fetched.content),
      });
    }
  }
  return { entries, deletes, batches, cursor: batches[batches.length - 1]?.nextCursor ?? "" };
}
