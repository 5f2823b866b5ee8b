/**
 * contactGroups (https://developers.google.com/people/api/rest/v1/contactGroups): list (`pageSize` 1–1000,
 * default 30; every listing ends with a `nextSyncToken`, `syncToken` → the groups changed since, deleted
 * ones with `metadata.deleted`), get (`maxMembers` → `memberResourceNames`), create (unique name) and
 * members.modify (`notFoundResourceNames`, `canNotRemoveLastContactGroupResourceNames`).
 */
import { CONTACTS_READ, CONTACTS_WRITE, pageSize, type PeopleRoutes } from "./common";
import { peopleError } from "./errors";
import { groupMask, renderGroup } from "./person";
import { listPage } from "./sync";

const GROUP_SERVICE = "google.people.v1.ContactGroupService";

function names(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw peopleError(400, `Invalid value at '${field}': a list of resource names is required.`);
  }
  return value as string[];
}

export function registerContactGroupRoutes(routes: PeopleRoutes): void {
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
