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
   * An item's own date may be later than its first backup (a message's Date header): "held at a date"
   * then also reads the items dated later than they were first seen (the catalog's `datedLater`).
   */
  datedByContent: boolean;
  /** Why the service is unavailable for a user, by Google's reason, for people (others: the general text). */
  unavailableTexts: Readonly<Record<string, string>>;
}

export const SERVICES: Readonly<Record<ServiceId, ServiceFacts>> = {
  // Mail newest first, by the message's date.
  gmail: {
    id: "gmail",
    dataType: "emails",
    name: "Gmail",
    itemKind: "gmail-message",
    searchKind: "mail",
    searchOrder: { field: "search.date", direction: "desc" },
    needsMailbox: true,
    restoresSharing: false,
    googleApi: "gmail",
    work: { backup: "gmail-backup", restore: "gmail-restore" },
    exportWord: "mail",
    browseBy: "label",
    itemsMayLackContent: false,
    datedByContent: true,
    unavailableTexts: { failedPrecondition: "Gmail is not enabled for this user" },
  },
  // Files by name.
  drive: {
    id: "drive",
    dataType: "drive",
    name: "Drive",
    itemKind: "drive-file",
    searchKind: "drive",
    searchOrder: { field: "search.name", direction: "asc" },
    needsMailbox: false,
    restoresSharing: true,
    googleApi: "drive",
    work: { backup: "drive-backup", restore: "drive-restore" },
    exportWord: "drive",
    browseBy: "folder",
    itemsMayLackContent: true,
    datedByContent: false,
    unavailableTexts: {},
  },
  // A user's calendars (their settings and sharing) and their events, newest start first.
  calendar: {
    id: "calendar",
    dataType: "calendars",
    name: "Calendar",
    itemKind: "calendar-entry",
    searchKind: "calendar",
    searchOrder: { field: "search.start", direction: "desc" },
    needsMailbox: true,
    restoresSharing: false,
    googleApi: "calendar",
    work: { backup: "calendar-backup", restore: "calendar-restore" },
    exportWord: "calendar",
    browseBy: "calendar",
    itemsMayLackContent: false,
    datedByContent: false,
    unavailableTexts: {},
  },
  // A user's contacts, contact groups and other contacts, by name.
  contacts: {
    id: "contacts",
    dataType: "contacts",
    name: "Contacts",
    itemKind: "contacts-entry",
    searchKind: "contact",
    searchOrder: { field: "search.name", direction: "asc" },
    needsMailbox: true,
    restoresSharing: false,
    googleApi: "people",
    work: { backup: "contacts-backup", restore: "contacts-restore" },
    exportWord: "contacts",
    browseBy: "group",
    itemsMayLackContent: false,
    datedByContent: false,
    unavailableTexts: {},
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
