/**
 * What the Contacts source, restorer and export share about the People API: the fields asked for, the
 * item keys, the shape of a backed-up entry's content, and how People's errors read.
 *
 * Item keys carry a prefix per kind (`contact:c123`, `group:4f1a…`, `other:c456`): a Gmail id is 16 hex
 * digits and a Drive id has no colon, so no key of another stream can be one of these, and a contact
 * and an other contact with the same id stay apart.
 */
import type { people_v1 } from "@googleapis/people";
import type { GoogleCaller } from "../google/caller";
import type { ItemMetadata } from "../sources/source";

/**
 * The fields a contact is created with (`contactPerson` of people.batchCreateContacts: "Allowed person
 * fields", https://developers.google.com/people/api/rest/v1/people/batchCreateContacts): the others are
 * Google's to set (metadata, photos, cover photos, age ranges, skills) or restored apart (memberships).
 */
export const WRITABLE_PERSON_FIELDS: readonly string[] = [
  "addresses",
  "biographies",
  "birthdays",
  "calendarUrls",
  "clientData",
  "emailAddresses",
  "events",
  "externalIds",
  "genders",
  "imClients",
  "interests",
  "locales",
  "locations",
  "miscKeywords",
  "names",
  "nicknames",
  "occupations",
  "organizations",
  "phoneNumbers",
  "relations",
  "sipAddresses",
  "urls",
  "userDefined",
];

/**
 * Every person field a contact can be read with (`personFields` of people.connections.list,
 * https://developers.google.com/people/api/rest/v1/people.connections/list): the writable ones and those
 * Google sets or that are restored apart, so a backup keeps what Google keeps.
 */
export const PERSON_FIELDS = [
  ...WRITABLE_PERSON_FIELDS,
  "ageRanges",
  "coverPhotos",
  "memberships",
  "metadata",
  "photos",
  "skills",
]
  .sort()
  .join(",");

/**
 * `readMask` of otherContacts.list: all that Google offers for other contacts read from the contact
 * source (https://developers.google.com/people/api/rest/v1/otherContacts/list).
 */
export const OTHER_CONTACT_FIELDS = "emailAddresses,metadata,names,phoneNumbers,photos";

/** `groupFields` of contactGroups.list and .get (every one). */
export const GROUP_FIELDS = "clientData,groupType,memberCount,metadata,name";

/**
 * `maxMembers` of contactGroups.get: Google's limit of contacts a user may keep (25,000), so a group's
 * every member is named.
 */
export const MAX_GROUP_MEMBERS = 25_000;

export type ContactEntryKind = "contact" | "group" | "other-contact";

const KEY_PREFIX: Readonly<Record<ContactEntryKind, { key: string; resource: string }>> = {
  contact: { key: "contact:", resource: "people/" },
  group: { key: "group:", resource: "contactGroups/" },
  "other-contact": { key: "other:", resource: "otherContacts/" },
};

/** Whether a version's metadata is a contact's (not a group's or an other contact's). */
export const isContactEntry = (metadata: { contactEntry?: ContactEntryKind }): boolean =>
  metadata.contactEntry === "contact";

/** Whether a version's metadata is a person's: a contact or an other contact (not a group). */
export const isPersonEntry = (metadata: { contactEntry?: ContactEntryKind }): boolean =>
  metadata.contactEntry === "contact" || metadata.contactEntry === "other-contact";

/** Whether a version's metadata is a contact group's. */
export const isGroupEntry = (metadata: { contactEntry?: ContactEntryKind }): boolean =>
  metadata.contactEntry === "group";

/** The start of every contact group's item key (`group:…`). */
export const GROUP_KEY_PREFIX = KEY_PREFIX.group.key;

/** The item key of a People resource name (`people/c123` → `contact:c123`). */
export function itemKeyOf(kind: ContactEntryKind, resourceName: string): string {
  const { key, resource } = KEY_PREFIX[kind];
  return `${key}${resourceName.startsWith(resource) ? resourceName.slice(resource.length) : resourceName}`;
}

/** What an item key names (`contact:c123` → contact, `people/c123`), or undefined if not a Contacts key. */
export function parseItemKey(itemKey: string): { kind: ContactEntryKind; resourceName: string } | undefined {
  for (const [kind, prefix] of Object.entries(KEY_PREFIX) as [
    ContactEntryKind,
    { key: string; resource: string },
  ][]) {
    if (itemKey.startsWith(prefix.key) && itemKey.length > prefix.key.length) {
      return { kind, resourceName: `${prefix.resource}${itemKey.slice(prefix.key.length)}` };
    }
  }
  return undefined;
}

/** A backed-up entry (a contact, group or other contact): its version's metadata and content bytes. */
export interface ContactsEntry {
  metadata: ItemMetadata;
  content: Buffer;
}

/** A contact's own photo as a backed-up entry keeps it (our field in the content, not Google's). */
export interface BackedUpPhoto {
  contentType: string;
  /** The image bytes, base64. */
  data: string;
}

/** The content field that holds the photo's bytes (Google's `photos` only has a URL). */
export const PHOTO_FIELD = "alpvaultPhoto";

/** A backed-up contact or other contact: the person as Google returned it, and its photo's bytes. */
export type BackedUpPerson = people_v1.Schema$Person & { [PHOTO_FIELD]?: BackedUpPhoto };

/** A backed-up contact group: the group as contactGroups.get returned it, with its members' names. */
export type BackedUpGroup = people_v1.Schema$ContactGroup;

/** The person's own photo: not Google's default picture, and from the contact itself (not a profile). */
export function ownPhoto(person: people_v1.Schema$Person): people_v1.Schema$Photo | undefined {
  return (person.photos ?? []).find(
    (photo) =>
      photo.url && photo.default !== true && (photo.metadata?.source?.type ?? "CONTACT") === "CONTACT",
  );
}

/** The image type of photo bytes (JPEG, PNG, GIF: what People takes), else a generic type. */
export function imageType(bytes: Buffer): string {
  if (bytes.length > 2 && bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "image/png";
  if (bytes.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  return "application/octet-stream";
}

/** One People call as the user, through the caller (Google's method id; reads are idempotent). */
export type PeopleCall = <T>(method: string, idempotent: boolean, send: () => Promise<T>) => Promise<T>;

export function peopleCall(caller: GoogleCaller, user: string, signal?: AbortSignal): PeopleCall {
  return (method, idempotent, send) =>
    caller.call({ api: "people", user, method, idempotent, ...(signal ? { signal } : {}) }, send);
}

/** The error body of a failed call (a GaxiosError's, or the last one a `GoogleCallError` kept). */
function errorBody(error: unknown): { status?: unknown; message?: unknown; details?: unknown } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  let data = (error as { response?: { data?: unknown } }).response?.data;
  if (typeof data === "string") {
    try {
      data = JSON.parse(data) as unknown;
    } catch {
      return undefined;
    }
  }
  const body = (data as { error?: unknown } | undefined)?.error;
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
}

/**
 * People's errors name their cause in `details` (`google.rpc.ErrorInfo.reason`), not in the `errors[]`
 * list of Gmail and Drive: e.g. `EXPIRED_SYNC_TOKEN`.
 */
export function peopleErrorReason(error: unknown): string | undefined {
  const details = errorBody(error)?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    const reason = (detail as { reason?: unknown } | null)?.reason;
    if (typeof reason === "string") return reason;
  }
  return undefined;
}

/**
 * "Sync tokens expire 7 days after the full sync. A request with an expired sync token will get an error
 * with an google.rpc.ErrorInfo with reason "EXPIRED_SYNC_TOKEN"" (people.connections.list's reference):
 * Google answers it as 400 FAILED_PRECONDITION.
 */
export function isExpiredSyncToken(error: unknown): boolean {
  return peopleErrorReason(error) === "EXPIRED_SYNC_TOKEN";
}

/** Google's words for a refusal (`400 INVALID_ARGUMENT: <message>`), for a restore's report. */
export function googleRefusal(error: unknown): string {
  const body = errorBody(error);
  const status = (error as { response?: { status?: unknown } } | null)?.response?.status;
  const code = typeof status === "number" ? `${status} ` : "";
  if (body && typeof body.message === "string") {
    return `${code}${typeof body.status === "string" ? `${body.status}: ` : ""}${body.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** How many group entries `backedUpGroupNames` reads a page. */
const GROUP_PAGE = 100;

/**
 * Every backed-up group's name, by its resource name, from the catalog's group entries (their keys come
 * together, after `GROUP_KEY_PREFIX`): `page` lists the items after a key, `content` reads one's content.
 */
export async function backedUpGroupNames<T extends { itemKey: string }>(
  page: (after: string, size: number) => Promise<readonly T[]>,
  content: (item: T) => Promise<Buffer>,
): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  let after = GROUP_KEY_PREFIX;
  for (;;) {
    const items = await page(after, GROUP_PAGE);
    const groups = items.filter((item) => item.itemKey.startsWith(GROUP_KEY_PREFIX));
    for (const item of groups) {
      const group = JSON.parse((await content(item)).toString("utf8")) as BackedUpGroup;
      const name = group.name ?? group.formattedName;
      if (group.resourceName && name) names[group.resourceName] = name;
    }
    if (groups.length < GROUP_PAGE || groups.length < items.length) return names;
    after = groups[groups.length - 1]!.itemKey;
  }
}
