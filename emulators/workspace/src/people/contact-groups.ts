/**
 * contactGroups (https://developers.google.com/people/api/rest/v1/contactGroups): list (`pageSize` 1–1000,
 * default 30; every listing ends with a `nextSyncToken`, `syncToken` → the groups changed since, deleted
 * ones with `metadata.deleted`), get (`maxMembers` → `memberResourceNames`), create (unique name),
 * update, delete and members.modify (`notFoundResourceNames`, `canNotRemoveLastContactGroupResourceNames`).
 *
 * - update (https://developers.google.com/people/api/rest/v1/contactGroups/update): `PUT` with
 *   `{contactGroup, updateGroupFields, readGroupFields}`; `updateGroupFields` defaults to `name` (valid:
 *   `name`, `clientData`, each replaced), `readGroupFields` to `metadata`, `groupType` and `name`. The
 *   group's `etag` is required and must be the current one: a stale one is 400 FAILED_PRECONDITION, as
 *   for a contact (people.updateContact; the group's etag changes with its members too). A duplicate name
 *   is 409 ("Attempting to create a group with a duplicate name will return a HTTP 409 error").
 * - delete (https://developers.google.com/people/api/rest/v1/contactGroups/delete): the group's members
 *   leave it, or with `deleteContacts=true` are deleted; the answer is empty.
 * Only user groups are updated or deleted: a system group is 400 (Google publishes no wording: ours).
 */
import { boolQuery, CONTACTS_READ, CONTACTS_WRITE, pageSize, type PeopleRoutes } from "./common";
import { etagRequired, peopleError, staleEtag } from "./errors";
import type { StoredGroup } from "./model";
import { etagOf, groupMask, renderGroup } from "./person";
import { listPage } from "./sync";

const GROUP_SERVICE = "google.people.v1.ContactGroupService";

function names(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw peopleError(400, `Invalid value at '${field}': a list of resource names is required.`);
  }
  return value as string[];
}

const UPDATE_GROUP_FIELDS = new Set(["clientData", "name"]);

function clientDataInput(value: unknown): { key: string; value: string }[] {
  if (value === undefined || value === null) return [];
  const valid =
    Array.isArray(value) &&
    value.every(
      (item: unknown) =>
        typeof (item as { key?: unknown } | null)?.key === "string" &&
        typeof (item as { value?: unknown }).value === "string",
    );
  if (!valid) throw peopleError(400, "Invalid value at 'contact_group.client_data': a list of {key, value}.");
  return (value as { key: string; value: string }[]).map(({ key, value: text }) => ({ key, value: text }));
}

/** What contactGroups.update changes: the fields `updateGroupFields` names, checked. */
function groupChange(
  body: Record<string, unknown>,
  group: StoredGroup,
): { name?: string; clientData?: { key: string; value: string }[] } {
  const input = body.contactGroup as Record<string, unknown> | undefined;
  if (typeof input !== "object" || input === null) throw peopleError(400, "contactGroup is required.");
  const raw = typeof body.updateGroupFields === "string" ? body.updateGroupFields : "";
  const paths =
    raw === "" ? ["name"] : raw.split(",").map((path) => path.trim().replace(/^contactGroup\./, ""));
  for (const path of paths) {
    if (!UPDATE_GROUP_FIELDS.has(path))
      throw peopleError(400, `Invalid updateGroupFields mask path: "${path}".`);
  }
  if (group.system) throw peopleError(400, `Cannot update system contact group ${group.id}.`);
  if (typeof input.etag !== "string" || input.etag === "") throw etagRequired("contact_group.etag");
  if (input.etag !== etagOf("group", group.id, group.version)) throw staleEtag("contact_group.etag");
  const change: { name?: string; clientData?: { key: string; value: string }[] } = {};
  if (paths.includes("name")) {
    if (typeof input.name !== "string" || input.name.trim() === "")
      throw peopleError(400, "contactGroup.name is required.");
    change.name = input.name.trim();
  }
  if (paths.includes("clientData")) change.clientData = clientDataInput(input.clientData);
  return change;
}

/** contactGroups.update and contactGroups.delete. */
function registerGroupWriteRoutes(routes: PeopleRoutes): void {
  const { emulator, route } = routes;
  const store = emulator.people;
  route(
    "PUT",
    "/v1/contactGroups/:group",
    "people.contactGroups.update",
    `${GROUP_SERVICE}.UpdateContactGroup`,
    CONTACTS_WRITE,
    async (context, user) => {
      const body = await context.json();
      const group = store.group(user.id, context.params.group ?? "");
      const change = groupChange(body, group);
      const read =
        typeof body.readGroupFields === "string" && body.readGroupFields !== "" ? body.readGroupFields : null;
      const mask = read ? groupMask(read) : new Set(["metadata", "groupType", "name"]);
      const updated = store.updateGroup(user.id, group.id, change);
      return renderGroup(updated, mask, store.members(user.id, group.id).length);
    },
  );

  route(
    "DELETE",
    "/v1/contactGroups/:group",
    "people.contactGroups.delete",
    `${GROUP_SERVICE}.DeleteContactGroup`,
    CONTACTS_WRITE,
    (context, user) => {
      const deleteContacts = boolQuery(context, "deleteContacts");
      const group = store.group(user.id, context.params.group ?? "");
      if (group.system) throw peopleError(400, `Cannot delete system contact group ${group.id}.`);
      store.deleteGroup(user.id, group.id, deleteContacts);
      return {};
    },
  );
}

export function registerContactGroupRoutes(routes: PeopleRoutes): void {
  registerGroupWriteRoutes(routes);
  const { emulator, route } = routes;
  const store = emulator.people;
  const memberCount = (userId: string, groupId: string): number => store.members(userId, groupId).length;

  route(
    "GET",
    "/v1/contactGroups",
    "people.contactGroups.list",
    `${GROUP_SERVICE}.ListContactGroups`,
    CONTACTS_READ,
    (context, user) => {
      const mask = groupMask(context.query.get("groupFields"));
      const page = listPage(
        store.groups(user.id),
        {
          kind: "contactGroups",
          userId: user.id,
          params: [[...mask].sort()],
          pageSize: pageSize(context, 30, 1000),
          pageToken: context.query.get("pageToken"),
          syncToken: context.query.get("syncToken"),
          requestSyncToken: true,
          delayFull: false,
        },
        store.settings,
        store.now(),
        store.book(user.id).tokensExpiredAt,
      );
      return {
        contactGroups: page.items.map((group) => renderGroup(group, mask, memberCount(user.id, group.id))),
        totalItems: page.total,
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        ...(page.nextSyncToken ? { nextSyncToken: page.nextSyncToken } : {}),
      };
    },
  );

  route(
    "GET",
    "/v1/contactGroups/:group",
    "people.contactGroups.get",
    `${GROUP_SERVICE}.GetContactGroup`,
    CONTACTS_READ,
    (context, user) => {
      const mask = groupMask(context.query.get("groupFields"));
      const max = Number(context.query.get("maxMembers") ?? "0");
      if (!Number.isInteger(max) || max < 0) throw peopleError(400, "Invalid maxMembers.");
      const group = store.group(user.id, context.params.group ?? "");
      const members = store.members(user.id, group.id);
      const listed = max > 0 ? members.slice(0, max).map((contact) => `people/c${contact.id}`) : undefined;
      return renderGroup(group, mask, members.length, listed);
    },
  );

  route(
    "POST",
    "/v1/contactGroups",
    "people.contactGroups.create",
    `${GROUP_SERVICE}.CreateContactGroup`,
    CONTACTS_WRITE,
    async (context, user) => {
      const body = await context.json();
      const input = body.contactGroup as { name?: unknown; clientData?: unknown } | undefined;
      if (!input || typeof input.name !== "string" || input.name.trim() === "") {
        throw peopleError(400, "contactGroup.name is required.");
      }
      const clientData = input.clientData as { key: string; value: string }[] | undefined;
      const mask = groupMask(typeof body.readGroupFields === "string" ? body.readGroupFields : null);
      return renderGroup(store.createGroup(user.id, input.name.trim(), clientData), mask, 0);
    },
  );

  route(
    "POST",
    "/v1/contactGroups/:group/members:modify",
    "people.contactGroups.members.modify",
    `${GROUP_SERVICE}.ModifyContactGroupMembers`,
    CONTACTS_WRITE,
    async (context, user) => {
      const body = await context.json();
      const add = names(body.resourceNamesToAdd, "resourceNamesToAdd");
      const remove = names(body.resourceNamesToRemove, "resourceNamesToRemove");
      if (add.length + remove.length > 1000)
        throw peopleError(400, "At most 1000 resource names can be modified at once.");
      const { notFound, lastGroup } = store.modifyMembers(user.id, context.params.group ?? "", add, remove);
      return {
        ...(notFound.length > 0 ? { notFoundResourceNames: notFound } : {}),
        ...(lastGroup.length > 0 ? { canNotRemoveLastContactGroupResourceNames: lastGroup } : {}),
      };
    },
  );
}
