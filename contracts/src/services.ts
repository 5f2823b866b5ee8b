/**
 * The Workspace services Alpvault protects, as one registry: what the rest of the product asks of a service
 * by its id, instead of comparing service names (lint: alpvault/no-service-branches). A service's id names
 * its stream of a resource and its Google API; its items have one catalog kind and one kind of search
 * fields. Adding a service is an entry here and its folder (`functions/src/engine/<service>/`).
 */

import type { WorkKind } from "./eta";
import type { DataType } from "./policies";

export const SERVICE_IDS = ["gmail", "drive", "calendar", "contacts"] as const;
export type ServiceId = (typeof SERVICE_IDS)[number];

export const ITEM_KINDS = ["gmail-message", "drive-file", "calendar-entry", "contacts-entry"] as const;
/** The catalog kind of a service's items. */
export type ServiceItemKind = (typeof ITEM_KINDS)[number];

/** The kind of search fields a service's items carry (`search.kind` of a catalog item). */
export type SearchFieldsKind = "mail" | "drive" | "calendar" | "contact";

export interface ServiceFacts {
  id: ServiceId;
  /** Its name as the product writes it ("Gmail of ada@example.com" in the audit log). */
  name: string;
  itemKind: ServiceItemKind;
  searchKind: SearchFieldsKind;
  /** How search lists the service's items: by which catalog field, in which direction. */
  searchOrder: { field: string; direction: "asc" | "desc" };
  /**
   * The same in catalog format v2 (docs/backup-format.md §9.3), where only dates, sizes and marks are in
   * clear: a name cannot be ordered without being readable, so files and contacts are listed by a date.
   */
  sealedSearchOrder: { field: string; direction: "asc" | "desc" };
  /** The policy's data type that backs the service up. */
  dataType: DataType;
  /** Its items live in a user's mailbox: a resource without an address (a shared drive) has none. */
  needsMailbox: boolean;
  /** Its items carry sharing that a recovery can re-apply (the recovery's "restore sharing" choice). */
  restoresSharing: boolean;
  /** The Google API its calls go to (its quotas): the caller's and the quota model's name for it. */
  googleApi: "gmail" | "drive" | "calendar" | "people";
  /** The work kinds the time-left estimate knows the service's backups and restores by. */
  work: { backup: Extract<WorkKind, `${string}-backup`>; restore: Extract<WorkKind, `${string}-restore`> };
  /** The word an export's file name carries for the service ("ada@example.com-mail-2026-12-01.mbox"). */
  exportWord: string;
  /** What a browse of its items is organised by: Gmail's labels, Drive's folders, calendars, contact groups. */
  browseBy: "label" | "folder" | "calendar" | "group";
  /** Items may be kept without their content (a Drive file Google offers no export of). */
  itemsMayLackContent: boolean;
  /**
   * A recovery restores its items in item-key order, which puts what an item depends on first (a
   * calendar before its events, a series' master before its instances): chosen items are sorted too.
   */
  restoresInKeyOrder: boolean;
  /**
   * An item's own date may be later than its first backup (a message's Date header): "held at a date"
   * then also reads the items dated later than they were first seen (the catalog's `datedLater`).
   */
  datedByContent: boolean;
  /** Why the service is unavailable for a user, by Google's reason, for people (others: the general text). */
  unavailableTexts: Readonly<Record<string, string>>;
  /**
   * The OAuth scopes Alpvault's installation must grant (domain-wide delegation): a backup reads with
   * `backup`, a restore writes with `restore`.
   */
  scopes: { backup: readonly string[]; restore: readonly string[] };
}

const GOOGLE_SCOPE = "https://www.googleapis.com/auth/";
const scopes = (backup: string[], restore: string[]): ServiceFacts["scopes"] => ({
  backup: backup.map((name) => `${GOOGLE_SCOPE}${name}`),
  restore: restore.map((name) => `${GOOGLE_SCOPE}${name}`),
});

export const SERVICES: Readonly<Record<ServiceId, ServiceFacts>> = {
  // Mail newest first, by the message's date.
  gmail: {
    id: "gmail",
    dataType: "emails",
    name: "Gmail",
    itemKind: "gmail-message",
    searchKind: "mail",
    searchOrder: { field: "search.date", direction: "desc" },
    sealedSearchOrder: { field: "index.date", direction: "desc" },
    needsMailbox: true,
    restoresSharing: false,
    googleApi: "gmail",
    work: { backup: "gmail-backup", restore: "gmail-restore" },
    exportWord: "mail",
    browseBy: "label",
    itemsMayLackContent: false,
    restoresInKeyOrder: false,
    datedByContent: true,
    unavailableTexts: { failedPrecondition: "Gmail is not enabled for this user" },
    // A restore imports into the mailbox, sets labels and (a drill) moves its copy to the trash.
    scopes: scopes(["gmail.readonly"], ["gmail.insert", "gmail.labels", "gmail.modify"]),
  },
  // Files by name.
  drive: {
    id: "drive",
    dataType: "drive",
    name: "Drive",
    itemKind: "drive-file",
    searchKind: "drive",
    searchOrder: { field: "search.name", direction: "asc" },
    sealedSearchOrder: { field: "index.modified", direction: "desc" },
    needsMailbox: false,
    restoresSharing: true,
    googleApi: "drive",
    work: { backup: "drive-backup", restore: "drive-restore" },
    exportWord: "drive",
    browseBy: "folder",
    itemsMayLackContent: true,
    restoresInKeyOrder: false,
    datedByContent: false,
    unavailableTexts: {},
    scopes: scopes(["drive"], ["drive"]),
  },
  // A user's calendars (their settings and sharing) and their events, newest start first.
  calendar: {
    id: "calendar",
    dataType: "calendars",
    name: "Calendar",
    itemKind: "calendar-entry",
    searchKind: "calendar",
    searchOrder: { field: "search.start", direction: "desc" },
    sealedSearchOrder: { field: "index.start", direction: "desc" },
    needsMailbox: true,
    restoresSharing: false,
    googleApi: "calendar",
    work: { backup: "calendar-backup", restore: "calendar-restore" },
    exportWord: "calendar",
    browseBy: "calendar",
    itemsMayLackContent: false,
    restoresInKeyOrder: true,
    datedByContent: false,
    unavailableTexts: {},
    // Google's acl.list needs an ACL scope: calendar.readonly alone does not read a calendar's sharing.
    scopes: scopes(["calendar.readonly", "calendar.acls.readonly"], ["calendar"]),
  },
  // A user's contacts, contact groups and other contacts, by name.
  contacts: {
    id: "contacts",
    dataType: "contacts",
    name: "Contacts",
    itemKind: "contacts-entry",
    searchKind: "contact",
    searchOrder: { field: "search.name", direction: "asc" },
    sealedSearchOrder: { field: "firstSeenAt", direction: "desc" },
    needsMailbox: true,
    restoresSharing: false,
    googleApi: "people",
    work: { backup: "contacts-backup", restore: "contacts-restore" },
    exportWord: "contacts",
    browseBy: "group",
    itemsMayLackContent: false,
    restoresInKeyOrder: false,
    datedByContent: false,
    unavailableTexts: {},
    // A restore to the original place reads the other contacts the user still has (not created again).
    scopes: scopes(["contacts.readonly", "contacts.other.readonly"], ["contacts", "contacts.other.readonly"]),
  },
};

export function isServiceId(value: unknown): value is ServiceId {
  return SERVICE_IDS.some((id) => id === value);
}

/**
 * The services a policy's data types back up for a resource, in the order a run backs them up: a resource
 * without a mailbox (a shared drive) has only the services that need none.
 */
export function servicesBackedUp(dataTypes: readonly DataType[], hasMailbox: boolean): ServiceId[] {
  return SERVICE_IDS.filter(
    (id) => dataTypes.includes(SERVICES[id].dataType) && (hasMailbox || !SERVICES[id].needsMailbox),
  );
}

/** The catalog kind of a service's items. */
export function itemKindOf(service: ServiceId): ServiceItemKind {
  return SERVICES[service].itemKind;
}

/** The service whose items are of a catalog kind, if it is one. */
export function serviceOfItemKind(kind: string | undefined): ServiceId | undefined {
  return SERVICE_IDS.find((id) => SERVICES[id].itemKind === kind);
}

/** What the registry says of the service whose items are of a catalog kind. */
export function factsOfItemKind(kind: ServiceItemKind): ServiceFacts {
  return SERVICES[serviceOfItemKind(kind) ?? SERVICE_IDS[0]];
}

/** The service whose restores (or backups) the time-left estimate knows by a work kind, if any. */
export function serviceOfWork(work: WorkKind): ServiceId | undefined {
  return SERVICE_IDS.find((id) => SERVICES[id].work.backup === work || SERVICES[id].work.restore === work);
}

/** The service whose items carry search fields of a kind. */
export function serviceOfSearchKind(kind: SearchFieldsKind): ServiceId {
  return SERVICE_IDS.find((id) => SERVICES[id].searchKind === kind) ?? SERVICE_IDS[0];
}

/** Each service's name as the product writes it, by id. */
export function serviceNames(): Record<ServiceId, string> {
  const names = {} as Record<ServiceId, string>;
  for (const id of SERVICE_IDS) names[id] = SERVICES[id].name;
  return names;
}

/** Google's OAuth refusals that mean the installation does not grant a service's scopes (or is gone). */
const ACCESS_REFUSALS: ReadonlySet<string> = new Set([
  "unauthorized_client",
  "invalid_scope",
  "access_denied",
]);

/** Whether Google's OAuth answer (its `error`) refuses the scopes asked for. */
export const isAccessRefusal = (detail: string | null | undefined): boolean =>
  detail !== null && detail !== undefined && ACCESS_REFUSALS.has(detail);

/** Every scope a service's backups and restores need, each once. */
export function scopesOf(service: ServiceId): string[] {
  const { backup, restore } = SERVICES[service].scopes;
  return [...new Set([...backup, ...restore])];
}

/** Where an admin grants scopes: Alpvault's client in the Google Admin console's domain-wide delegation. */
const grantWhere = (scopes: readonly string[]) =>
  `In the Google Admin console, open Security → Access and data control → API controls → Manage ` +
  `domain-wide delegation, edit Alpvault's client and make sure it has ${scopes.join(", ")}.`;

/**
 * What to grant and where, when Google refused a service's access (`detail` is Google's refusal), or null:
 * an installation made before the service was protected lacks its scopes.
 */
export function accessToGrantText(service: ServiceId, detail: string | null): string | null {
  if (!isAccessRefusal(detail)) return null;
  const { name } = SERVICES[service];
  return (
    `Google refused Alpvault's access to ${name}: the installation may not grant it. ${grantWhere(scopesOf(service))} ` +
    `The next backup then includes ${name}.`
  );
}

/** What to grant and where, found before any backup: the scopes of a service Google refuses to grant. */
export function scopesToGrantText(service: ServiceId, missing: readonly string[]): string {
  const { name } = SERVICES[service];
  return (
    `Alpvault's installation does not grant ${name}: its backups and restores of ${name} stop at Google. ` +
    `${grantWhere(missing)} The next backup then includes ${name}.`
  );
}
