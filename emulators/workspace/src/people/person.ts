/**
 * Person resources as the People API reads and writes them
 * (https://developers.google.com/people/api/rest/v1/people): field masks (`personFields`, `readMask`,
 * `updatePersonFields`), a contact's body on create and update (unknown fields refused as Google's JSON
 * decoding refuses them; names as `names.ts` keeps them), and the answer: `resourceName`, `etag`, each
 * field's items with their `metadata.source`, memberships, photos served by the emulator, and
 * `metadata.sources` (`deleted: true` for a tombstone in an incremental sync).
 */
import { createHash } from "node:crypto";
import {
  type StoredContact,
  type StoredGroup,
  PERSON_FIELDS,
  SINGLETON_FIELDS,
  WRITABLE_FIELDS,
} from "./model";
import { maskRequired, peopleError } from "./errors";
import { shownName, writtenNames } from "./names";

/** Parses a field mask; missing is Google's "mask is required", an unknown path its "Invalid … mask path". */
export function fieldMask(
  raw: string | null | undefined,
  name: "personFields" | "readMask" | "updatePersonFields",
  valid: Set<string>,
  doc: string,
): Set<string> {
  const paths = (raw ?? "")
    .split(",")
    .map((path) => path.trim().replace(/^person\./, ""))
    .filter(Boolean);
  if (paths.length === 0) throw maskRequired(name, doc);
  for (const path of paths) {
    if (!valid.has(path)) {
      throw peopleError(
        400,
        `Invalid ${name} mask path: "${path}". Valid paths are documented at https://developers.google.com/people/api/rest/v1/${doc}.`,
      );
    }
  }
  return new Set(paths);
}

const ALL_WRITABLE = new Set<string>(WRITABLE_FIELDS);
const READ_ONLY = new Set([...PERSON_FIELDS].filter((field) => !ALL_WRITABLE.has(field)));

export interface ContactInputOptions {
  /**
   * Names keep the `displayName` they are given: the emulator's admin API sets up state as Google holds
   * it (a contact Gmail saved from a mail header has a display name only). A client's is dropped.
   */
  keepDisplayNames?: boolean;
}

/** One field's items as a contact keeps them: a list of objects (one at most of a singleton field). */
function fieldItems(
  key: string,
  value: unknown,
  at: string,
  options: ContactInputOptions,
): Record<string, unknown>[] {
  if (
    !Array.isArray(value) ||
    !value.every((item) => typeof item === "object" && item && !Array.isArray(item))
  ) {
    throw peopleError(400, `Invalid value at '${at}.${key}': a list of objects is required.`);
  }
  if (SINGLETON_FIELDS.has(key) && value.length > 1) {
    throw peopleError(400, `Invalid ${at}.${key}: a contact has at most one.`);
  }
  // Item metadata is Google's to set; the rest is kept as given (names without their output-only fields).
  const items = (value as Record<string, unknown>[]).map(({ metadata: _metadata, ...item }) => item);
  return key === "names" && !options.keepDisplayNames ? writtenNames(items) : items;
}

const unknownField = (key: string, at: string) =>
  peopleError(400, `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);

function personObject(body: unknown, at: string): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw peopleError(400, `Invalid value at '${at}': a Person object is required.`);
  }
  return body as Record<string, unknown>;
}

/** A contact's body (a Person) checked and reduced to what a contact keeps; memberships as group ids. */
export function contactInput(
  body: unknown,
  at: string,
  options: ContactInputOptions = {},
): { fields: Record<string, Record<string, unknown>[]>; groups?: string[] } {
  const fields: Record<string, Record<string, unknown>[]> = {};
  let groups: string[] | undefined;
  for (const [key, value] of Object.entries(personObject(body, at))) {
    if (key === "resourceName" || key === "etag") continue;
    if (key === "memberships") {
      groups = membershipsInput(value, at);
      continue;
    }
    if (READ_ONLY.has(key)) throw peopleError(400, `${at}.${key} is read only.`);
    if (!ALL_WRITABLE.has(key)) throw unknownField(key, at);
    const items = fieldItems(key, value, at, options);
    if (items.length > 0) fields[key] = items;
  }
  return { fields, ...(groups ? { groups } : {}) };
}

/**
 * The body of people.updateContact: each field `updatePersonFields` names, replaced ("All fields
 * specified in the update_mask will be replaced": one the body leaves out is cleared); every other field
 * of the Person is ignored (read-only ones too, as a person read back carries them). Memberships, when
 * named, must keep at least one group ("The server returns a 400 error if memberships are being updated
 * and there are no contact group memberships specified on the person").
 */
export function contactUpdateInput(
  body: unknown,
  mask: Set<string>,
): { fields: Record<string, Record<string, unknown>[]>; groups?: string[] } {
  const person = personObject(body, "person");
  for (const key of Object.keys(person)) {
    if (key !== "resourceName" && key !== "etag" && !PERSON_FIELDS.has(key))
      throw unknownField(key, "person");
  }
  const fields: Record<string, Record<string, unknown>[]> = {};
  for (const field of mask) {
    if (field === "memberships") continue;
    const value = person[field];
    fields[field] = value === undefined || value === null ? [] : fieldItems(field, value, "person", {});
  }
  if (!mask.has("memberships")) return { fields };
  const groups = membershipsInput(person.memberships ?? [], "person");
  if (groups.length === 0) {
    throw peopleError(
      400,
      "Invalid person.memberships: a contact must keep at least one contact group membership.",
    );
  }
  return { fields, groups };
}

function membershipsInput(value: unknown, at: string): string[] {
  if (!Array.isArray(value)) throw peopleError(400, `Invalid value at '${at}.memberships'.`);
  return value.map((item: unknown) => {
    const membership = (item as { contactGroupMembership?: Record<string, unknown> }).contactGroupMembership;
    const name = membership?.contactGroupResourceName ?? membership?.contactGroupId;
    if (typeof name !== "string") {
      throw peopleError(
        400,
        `Invalid ${at}.memberships: contactGroupMembership.contactGroupResourceName is required.`,
      );
    }
    return name.replace(/^contactGroups\//, "");
  });
}

export const sourceId = (contact: StoredContact): string => BigInt(contact.id).toString(16);

export function etagOf(kind: string, id: string, version: number): string {
  return `%${createHash("sha1").update(`${kind}|${id}|${version}`).digest("base64").slice(0, 22)}`;
}

export interface RenderOptions {
  baseUrl: string;
  /** `people/c…` (contacts) or `otherContacts/c…`. */
  prefix?: "people" | "otherContacts";
}

/** A contact as the API answers it, restricted to the mask. */
export function renderPerson(
  contact: StoredContact,
  mask: Set<string>,
  options: RenderOptions,
): Record<string, unknown> {
  const prefix = options.prefix ?? "people";
  const type = contact.kind === "other" ? "OTHER_CONTACT" : "CONTACT";
  const source = { type, id: sourceId(contact) };
  const out: Record<string, unknown> = {
    resourceName: `${prefix}/c${contact.id}`,
    etag: etagOf("person", contact.id, contact.version),
  };
  if (mask.has("metadata")) {
    out.metadata = {
      sources: [
        {
          ...source,
          etag: `#${etagOf("source", contact.id, contact.version).slice(1)}`,
          updateTime: new Date(contact.updatedAt).toISOString(),
        },
      ],
      objectType: "PERSON",
      ...(contact.deleted ? { deleted: true } : {}),
    };
  }
  if (contact.deleted) return out;
  for (const field of WRITABLE_FIELDS) {
    const items = contact.fields[field];
    if (!mask.has(field) || !items || items.length === 0) continue;
    out[field] = items.map((item, index) => ({
      metadata: { ...(index === 0 ? { primary: true } : {}), source },
      ...(field === "names" ? shownName(item) : item),
    }));
  }
  if (mask.has("memberships") && contact.kind === "contact") {
    out.memberships = contact.groups.map((group) => ({
      metadata: { source },
      contactGroupMembership: { contactGroupId: group, contactGroupResourceName: `contactGroups/${group}` },
    }));
  }
  if (mask.has("photos")) {
    out.photos = [
      contact.photo
        ? { metadata: { primary: true, source }, url: `${options.baseUrl}/people-photos/${contact.photo.id}` }
        : {
            metadata: { primary: true, source },
            url: `${options.baseUrl}/people-photos/default`,
            default: true,
          },
    ];
  }
  return out;
}

export const GROUP_FIELDS = new Set(["clientData", "groupType", "memberCount", "metadata", "name"]);
const DEFAULT_GROUP_FIELDS = new Set(["metadata", "groupType", "memberCount", "name"]);

export function groupMask(raw: string | null): Set<string> {
  if (!raw) return DEFAULT_GROUP_FIELDS;
  const paths = raw
    .split(",")
    .map((path) => path.trim())
    .filter(Boolean);
  for (const path of paths) {
    if (!GROUP_FIELDS.has(path)) throw peopleError(400, `Invalid groupFields mask path: "${path}".`);
  }
  return new Set(paths);
}

export function renderGroup(
  group: StoredGroup,
  mask: Set<string>,
  memberCount: number,
  members?: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    resourceName: `contactGroups/${group.id}`,
    etag: etagOf("group", group.id, group.version),
  };
  if (mask.has("metadata")) {
    out.metadata = {
      updateTime: new Date(group.updatedAt).toISOString(),
      ...(group.deleted ? { deleted: true } : {}),
    };
  }
  if (group.deleted) return out;
  if (mask.has("groupType")) out.groupType = group.system ? "SYSTEM_CONTACT_GROUP" : "USER_CONTACT_GROUP";
  if (mask.has("name")) {
    // System groups are named by their id ("myContacts"), shown by their formatted name ("My Contacts").
    out.name = group.system ? group.id : group.name;
    out.formattedName = group.name;
  }
  if (mask.has("clientData") && group.clientData) out.clientData = group.clientData;
  if (mask.has("memberCount") && memberCount > 0) out.memberCount = memberCount;
  if (members && members.length > 0) out.memberResourceNames = members;
  return out;
}
