/**
 * people.connections.list (https://developers.google.com/people/api/rest/v1/people.connections/list) and
 * otherContacts.list (https://developers.google.com/people/api/rest/v1/otherContacts/list): `personFields`
 * / `readMask` required, `pageSize` 1–1000 (default 100), `sortOrder`, `requestSyncToken` → `nextSyncToken`,
 * `syncToken` → the changes since (deleted contacts with `metadata.deleted: true`), each list with its own
 * tokens; the extra fixed quota of a full listing's first page (429 when over).
 */
import type { DirectoryUser } from "../directory/store";
import type { RequestContext } from "../http";
import { boolQuery, CONTACTS_READ, OTHER_CONTACTS_READ, pageSize, type PeopleRoutes } from "./common";
import { peopleError } from "./errors";
import { OTHER_CONTACT_FIELDS, PERSON_FIELDS, type StoredContact } from "./model";
import { fieldMask, renderPerson } from "./person";
import { listPage, type Syncable } from "./sync";

const SORT_ORDERS = [
  "LAST_MODIFIED_ASCENDING",
  "LAST_MODIFIED_DESCENDING",
  "FIRST_NAME_ASCENDING",
  "LAST_NAME_ASCENDING",
];
const SOURCES = [
  "READ_SOURCE_TYPE_CONTACT",
  "READ_SOURCE_TYPE_PROFILE",
  "READ_SOURCE_TYPE_DOMAIN_CONTACT",
  "READ_SOURCE_TYPE_OTHER_CONTACT",
];

function nameKey(contact: Syncable, key: "givenName" | "familyName"): string {
  const names = (contact as StoredContact).fields.names?.[0];
  return String(names?.[key] ?? "").toLowerCase();
}

function comparator(order: string): ((a: Syncable, b: Syncable) => number) | undefined {
  switch (order) {
    case "LAST_MODIFIED_DESCENDING":
      return (a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1);
    case "FIRST_NAME_ASCENDING":
      return (a, b) =>
        nameKey(a, "givenName").localeCompare(nameKey(b, "givenName")) || (a.id < b.id ? -1 : 1);
    case "LAST_NAME_ASCENDING":
      return (a, b) =>
        nameKey(a, "familyName").localeCompare(nameKey(b, "familyName")) || (a.id < b.id ? -1 : 1);
    default:
      return undefined;
  }
}

function listParams(context: RequestContext): { sources: string[] } {
  const sources = context.query.getAll("sources");
  for (const source of sources) {
    if (!SOURCES.includes(source))
      throw peopleError(
        400,
        `Invalid value at 'sources' (type.googleapis.com/google.people.v1.ReadSourceType), "${source}"`,
      );
  }
  return { sources };
}

export function registerConnectionRoutes(routes: PeopleRoutes): void {
  const { emulator, route } = routes;
  const store = emulator.people;
  const list = (
    context: RequestContext,
    user: DirectoryUser,
    kind: "contact" | "other",
    mask: Set<string>,
    order: string,
  ) => {
    const syncToken = context.query.get("syncToken");
    const pageToken = context.query.get("pageToken");
    const requestSyncToken = boolQuery(context, "requestSyncToken");
    const { sources } = listParams(context);
    const page = listPage(
      [...store.book(user.id).contacts.values()].filter((contact) => contact.kind === kind),
      {
        kind: kind === "contact" ? "connections" : "otherContacts",
        userId: user.id,
        params: [[...mask].sort(), order, sources],
        pageSize: pageSize(context, 100, 1000),
        pageToken,
        syncToken,
        requestSyncToken,
        compare: comparator(order),
      },
      store.settings,
      store.now(),
      store.book(user.id).tokensExpiredAt,
    );
    if (page.firstFullPage) routes.chargeFirstPage(user);
    const prefix = kind === "contact" ? "people" : "otherContacts";
    return {
      page,
      people: page.items.map((contact) => renderPerson(contact, mask, { baseUrl: emulator.baseUrl, prefix })),
    };
  };

  route(
    "GET",
    "/v1/people/:person/connections",
    "people.people.connections.list",
    "google.people.v1.PeopleService.ListConnections",
    CONTACTS_READ,
    (context, user) => {
      if (context.params.person !== "me")
        throw peopleError(400, "Only people/me is valid for the resourceName.");
      const mask = fieldMask(
        context.query.get("personFields"),
        "personFields",
        PERSON_FIELDS,
        "people.connections/list",
      );
      const order = context.query.get("sortOrder") ?? "LAST_MODIFIED_ASCENDING";
      if (!SORT_ORDERS.includes(order))
        throw peopleError(
          400,
          `Invalid value at 'sort_order' (type.googleapis.com/google.people.v1.ListConnectionsRequest.SortOrder), "${order}"`,
        );
      const { page, people } = list(context, user, "contact", mask, order);
      return {
        ...(people.length > 0 ? { connections: people } : {}),
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        ...(page.nextSyncToken ? { nextSyncToken: page.nextSyncToken } : {}),
        totalPeople: page.total,
        totalItems: page.total,
      };
    },
  );

  route(
    "GET",
    "/v1/otherContacts",
    "people.otherContacts.list",
    "google.people.v1.OtherContactsService.ListOtherContacts",
    OTHER_CONTACTS_READ,
    (context, user) => {
      const mask = fieldMask(
        context.query.get("readMask"),
        "readMask",
        OTHER_CONTACT_FIELDS,
        "otherContacts/list",
      );
      const { page, people } = list(context, user, "other", mask, "LAST_MODIFIED_ASCENDING");
      return {
        ...(people.length > 0 ? { otherContacts: people } : {}),
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        ...(page.nextSyncToken ? { nextSyncToken: page.nextSyncToken } : {}),
        totalSize: page.total,
      };
    },
  );
}
