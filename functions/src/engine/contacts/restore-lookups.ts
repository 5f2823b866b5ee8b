/**
 * What a restore in parts (a recovery's deliveries) looks up at the target user before it creates
 * contacts: the contacts an earlier part created (each carries the restore's tag and the backed-up
 * resource name in its client data), and which backed-up resource names the user still has.
 */
import type { people_v1 } from "@googleapis/people";
import type { PeopleCall } from "./people";

/** The client-data key of the tag a restore in parts gives each contact it creates. */
export const RESTORE_TAG_KEY = "alpvault.restore";
/** Resource names per `people.getBatchGet` call: Google's maximum. */
const BATCH_GET_SIZE = 200;

/** `items` in runs of at most `size`. */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** The start of an other contact's resource name. */
const OTHER_CONTACT_RESOURCE = "otherContacts/";

/**
 * The contacts of the target user a restore tagged `tag` created, by the backed-up resource name each
 * came from (every connection read once, with its client data only).
 */
export async function taggedContacts(
  people: people_v1.People,
  call: PeopleCall,
  tag: string,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let pageToken: string | undefined;
  do {
    const { data } = await call("people.people.connections.list", true, () =>
      people.people.connections.list({
        resourceName: "people/me",
        personFields: "clientData",
        pageSize: 1_000,
        ...(pageToken ? { pageToken } : {}),
      }),
    );
    for (const person of data.connections ?? []) {
      for (const entry of person.clientData ?? []) {
        const [entryTag, from] = (entry.value ?? "").split(" ");
        if (entry.key === RESTORE_TAG_KEY && entryTag === tag && from && person.resourceName)
          found.set(from, person.resourceName);
      }
    }
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);
  return found;
}

/**
 * Which of these resource names the target user still has: contacts by `people.getBatchGet`, other
 * contacts (`otherContacts/…`, which no call gets by name) among every other contact read once.
 */
export async function existingEntries(
  people: people_v1.People,
  call: PeopleCall,
  resourceNames: readonly string[],
): Promise<Set<string>> {
  const others = resourceNames.filter((name) => name.startsWith(OTHER_CONTACT_RESOURCE));
  const contacts = resourceNames.filter((name) => !name.startsWith(OTHER_CONTACT_RESOURCE));
  const [found, otherNames] = await Promise.all([
    contacts.length > 0 ? existingContacts(people, call, contacts) : new Set<string>(),
    others.length > 0 ? otherContactNames(people, call) : new Set<string>(),
  ]);
  for (const name of others) if (otherNames.has(name)) found.add(name);
  return found;
}

/** The resource name of every other contact the user has. */
async function otherContactNames(people: people_v1.People, call: PeopleCall): Promise<Set<string>> {
  const names = new Set<string>();
  let pageToken: string | undefined;
  do {
    const { data } = await call("people.otherContacts.list", true, () =>
      people.otherContacts.list({
        readMask: "metadata",
        pageSize: 1_000,
        ...(pageToken ? { pageToken } : {}),
      }),
    );
    for (const other of data.otherContacts ?? []) if (other.resourceName) names.add(other.resourceName);
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);
  return names;
}

/** Which of these contacts' resource names the target user still has. */
export async function existingContacts(
  people: people_v1.People,
  call: PeopleCall,
  resourceNames: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks([...resourceNames], BATCH_GET_SIZE)) {
    const { data } = await call("people.people.getBatchGet", true, () =>
      people.people.getBatchGet({ resourceNames: chunk, personFields: "metadata" }),
    );
    for (const response of data.responses ?? []) {
      if (response.httpStatusCode === 200 && response.requestedResourceName)
        found.add(response.requestedResourceName);
    }
  }
  return found;
}
