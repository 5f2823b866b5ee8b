/**
 * Browsing an address book by contact group (docs/api.md "Browse"): all contacts, each contact group the
 * backups hold (by name), or the other contacts (those Google keeps from the user's mail), each by name.
 * A group's contacts are those its backed-up members' search fields name it in (as the last backup of each
 * contact saw its groups).
 */
import { BROWSE_MESSAGES, MAX_BROWSE_PLACES, type BrowseGroup } from "@alpvault/contracts/browse";
import { bounded } from "../engine/sources/search-text";
import { DomainError } from "../lib/errors";
import { placeKeys, placePage, type BrowseContext, type PlaceBrowser } from "./browse-place";
import { entriesOf, type PlaceFilter } from "./repo";
import { contactResult, fieldsOf } from "./results";
import { single } from "./service";

const ALL = "all";
const OTHER = "other";
const GROUP = "group:";
/** The longest group a browse takes ("group:" and a name as search keeps it). */
const MAX_GROUP = 300;

/** The contact groups the backups hold, by name, after "All contacts" and before "Other contacts". */
async function groupsOf(
  context: Pick<BrowseContext, "scope" | "kind">,
  resourceId: string,
): Promise<BrowseGroup[]> {
  const entries = await entriesOf(context.scope, resourceId, context.kind, "group", MAX_BROWSE_PLACES);
  const groups = entries
    .flatMap((entry) => fieldsOf(entry, "contact") ?? [])
    .map((search) => ({ group: `${GROUP}${search.name}`, name: search.display?.name || search.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return [{ group: ALL, name: "All contacts" }, ...groups, { group: OTHER, name: "Other contacts" }];
}

/** The search field a group's contacts are found by. */
function groupFilter(group: string): PlaceFilter {
  if (group === ALL) return { field: "search.entry", op: "==", value: "contact" };
  if (group === OTHER) return { field: "search.entry", op: "==", value: "other-contact" };
  return { field: "search.groups", op: "array-contains", value: group.slice(GROUP.length) };
}

async function checkedGroups(
  context: Pick<BrowseContext, "scope" | "kind">,
  resourceId: string,
  group: string,
) {
  const groups = await groupsOf(context, resourceId);
  if (!groups.some((entry) => entry.group === group)) throw DomainError.invalid(BROWSE_MESSAGES.invalidGroup);
  return groups;
}

export const contactsBrowser: PlaceBrowser = {
  params: ["group"],
  misplaced: BROWSE_MESSAGES.groupForContacts,
  open(query) {
    const given = single(query, "group");
    const group =
      given === undefined
        ? ALL
        : given.startsWith(GROUP)
          ? `${GROUP}${bounded(given.slice(GROUP.length))}`
          : given;
    if (
      group.length > MAX_GROUP ||
      !(group === ALL || group === OTHER || (group.startsWith(GROUP) && group.length > GROUP.length))
    ) {
      throw DomainError.invalid(BROWSE_MESSAGES.invalidGroup);
    }
    return {
      key: group,
      async page(context) {
        const groups = await checkedGroups(context, context.resource.resourceId, group);
        const { found, items } = await placePage(context, groupFilter(group));
        return { found, results: items.map(contactResult), extras: { groups, group } };
      },
      async keys(context, asOf, limit) {
        const groups = await checkedGroups(context, context.resourceId, group);
        const within = groups.find((entry) => entry.group === group)?.name ?? group;
        return { ...(await placeKeys(context, groupFilter(group), asOf, limit)), within };
      },
    };
  },
};
