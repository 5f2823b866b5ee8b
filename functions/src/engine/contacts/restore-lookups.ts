/**
 * What a restore in parts (a recovery's deliveries) looks up at the target user before it creates
 * contacts: the contacts an earlier part created (each carries the restore's tag and the backed-up
 * resource name in its client data), and which backed-up resource names the user still has.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { people_v1 } from "@googleapis/people";
import type { PeopleCall } from "./people";

/** The client-data key of the tag a restore in parts gives each contact it creates. */
export const RESTORE_TAG_KEY = "alpvault.restore";

/**
 * The tag of a restore in parts: its id, and a secret of the restore that nobody at Google sees. Each
 * value is `<id> <backed-up resource name> <MAC>`, the MAC an HMAC-SHA256 of the first two under the
 * secret: the user, who can read and write their contacts' client data, cannot make a contact that the
 * restore would take for one it created (and so leave the real one uncreated). Without a secret (a restore
 * started before tags were signed) the value is `<id> <resource name>`.
 */
export interface RestoreTag {
  id: string;
  secret?: Buffer;
}

/** Base64url characters of the MAC kept (128 bits). */
const MAC_LENGTH = 22;

const macOf = (secret: Buffer, id: string, from: string): string =>
  createHmac("sha256", secret).update(`${id} ${from}`).digest("base64url").slice(0, MAC_LENGTH);

/** The client-data value a restore tagged `tag` gives the contact it creates from `from`. */
export function restoreTagValue(tag: RestoreTag, from: string): string {
  return tag.secret ? `${tag.id} ${from} ${macOf(tag.secret, tag.id, from)}` : `${tag.id} ${from}`;
}

/** The client-data entry a restore tagged `tag` gives the contact it creates from `from`. */
export const restoreTagEntry = (tag: RestoreTag, from: string): people_v1.Schema$ClientData => ({
  key: RESTORE_TAG_KEY,
  value: restoreTagValue(tag, from),
});

/** The backed-up resource name of a value `tag` wrote, or undefined for any other value. */
export function restoreTagSource(tag: RestoreTag, value: string): string | undefined {
  const [id, from, mac, ...rest] = value.split(" ");
  if (id !== tag.id || !from || rest.length > 0) return undefined;
  if (!tag.secret) return mac === undefined ? from : undefined;
  const expected = Buffer.from(macOf(tag.secret, id, from));
  const given = Buffer.from(mac ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected) ? from : undefined;
}
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
 * came from (every connection read once, with its client data only; a value the tag did not sign is not one).
 */
export async function taggedContacts(
  people: people_v1.People,
  call: PeopleCall,
  tag: RestoreTag,
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
        const from = entry.key === RESTORE_TAG_KEY ? restoreTagSource(tag, entry.value ?? "") : undefined;
        if (from && person.resourceName) found.set(from, person.resourceName);
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
