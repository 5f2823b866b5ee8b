/**
 * The People API's state, as the emulator keeps it: per user an address book of contacts ("My contacts"
 * and "Other contacts"), contact groups and photos, with the times (on the emulator's clock) each was
 * created, changed or deleted, which the sync tokens read. Deleted contacts and groups stay as tombstones
 * so that an incremental sync can report them (`metadata.deleted: true`).
 */

/** Person fields a contact keeps (Person in https://developers.google.com/people/api/rest/v1/people). */
export const WRITABLE_FIELDS = [
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
] as const;
/** Fields a contact may hold once only (people.createContact: "only one per contact"). */
export const SINGLETON_FIELDS = new Set(["names", "birthdays", "genders", "biographies"]);
/** Every valid `personFields` path (people.get's list). */
export const PERSON_FIELDS = new Set<string>([
  ...WRITABLE_FIELDS,
  "ageRanges",
  "coverPhotos",
  "memberships",
  "metadata",
  "photos",
  "skills",
]);
/** Every valid `updatePersonFields` path (people.updateContact's list): the writable fields and memberships. */
export const UPDATE_PERSON_FIELDS = new Set<string>([...WRITABLE_FIELDS, "memberships"]);
/** `readMask` paths otherContacts.list accepts. */
export const OTHER_CONTACT_FIELDS = new Set([
  "emailAddresses",
  "metadata",
  "names",
  "phoneNumbers",
  "photos",
]);

export interface StoredPhoto {
  id: string;
  /** The image, base64. */
  data: string;
  contentType: string;
}

export interface StoredContact {
  /** Decimal id: resource name `people/c<id>` (`otherContacts/c<id>`), source id its hex form. */
  id: string;
  kind: "contact" | "other";
  fields: Record<string, Record<string, unknown>[]>;
  /** Contact group ids (`myContacts`, `starred`, user groups). */
  groups: string[];
  photo?: StoredPhoto;
  version: number;
  /** The store's change sequence at the last change (orders changes made in the same millisecond). */
  seq: number;
  createdAt: number;
  updatedAt: number;
  deleted?: boolean;
}

export interface StoredGroup {
  id: string;
  name: string;
  system: boolean;
  clientData?: { key: string; value: string }[];
  version: number;
  /** The store's change sequence at the last change (orders changes made in the same millisecond). */
  seq: number;
  createdAt: number;
  updatedAt: number;
  deleted?: boolean;
}

export interface AddressBook {
  userId: string;
  contacts: Map<string, StoredContact>;
  groups: Map<string, StoredGroup>;
  /** Sync tokens issued before this instant are expired (the admin API's "expire sync tokens"). */
  tokensExpiredAt: number;
}

export interface PeopleSettings {
  /**
   * How long a write takes to show in sync requests. The reference of connections.list says "Writes may
   * have a propagation delay of several minutes for sync requests": 5 minutes by default.
   */
  propagationDelayMs: number;
  /** "Sync tokens expire 7 days after the full sync." */
  syncTokenLifetimeMs: number;
  /**
   * What the 7 days count from: the full sync that started the chain of tokens (`fullSync`, the
   * reference's words, the default) or the call that issued the token (`issued`).
   */
  syncTokenExpiry: "fullSync" | "issued";
  /** Google Contacts keeps at most 25,000 contacts per user. */
  contactLimit: number;
  /** "The first page of a full sync request has an additional quota … fixed": first pages per user a minute. */
  fullSyncFirstPagesPerMinute: number;
}

export const DEFAULT_PEOPLE_SETTINGS: PeopleSettings = {
  propagationDelayMs: 5 * 60_000,
  syncTokenLifetimeMs: 7 * 24 * 3_600_000,
  syncTokenExpiry: "fullSync",
  contactLimit: 25_000,
  fullSyncFirstPagesPerMinute: 6,
};

/** Google's system contact groups (contactGroups.list answers them with groupType SYSTEM_CONTACT_GROUP). */
export const SYSTEM_GROUPS: Record<string, string> = {
  myContacts: "My Contacts",
  starred: "Starred",
  friends: "Friends",
  family: "Family",
  coworkers: "Coworkers",
  chatBuddies: "Chat contacts",
  all: "All Contacts",
  blocked: "Blocked",
};
/** System groups a contact may be added to or removed from (contactGroups.members.modify). */
export const MEMBER_SYSTEM_GROUPS = new Set(["myContacts", "starred"]);

export interface PeopleSnapshot {
  nextId: number;
  seq?: number;
  settings: PeopleSettings;
  books: {
    userId: string;
    contacts: StoredContact[];
    groups: StoredGroup[];
    tokensExpiredAt: number;
  }[];
}
