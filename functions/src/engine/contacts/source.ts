/**
 * Google Contacts as a backup source (one user's contacts, through the People API).
 *
 * Items (keys in `people.ts`):
 * - each contact (`people.connections.list` of `people/me` with every person field Google keeps): its
 *   content is the person as Google returned it, plus the bytes of its own photo (not Google's default
 *   picture) base64-encoded in our field `alpvaultPhoto`: Google's photo URL is no backup, and the
 *   restore needs the bytes;
 * - each user contact group (`contactGroups.list`, then `contactGroups.get` for its members' resource
 *   names). System groups (My Contacts, Starred…) are not items: they are the contacts' memberships;
 * - each other contact (`otherContacts.list`, the fields its `readMask` offers), saved by Gmail from mail.
 * `versionKey` is Google's etag (a contact's changes with any of its fields, its photo or memberships);
 * `contentKey` the SHA-256 of the content bytes.
 *
 * Listing (`listing.ts`, on the shared steps of `../sources/sync-token-listing.ts`): contact groups are
 * read whole every run (a user has few; an unchanged group keeps its etag, so the engine skips it, and a
 * group gone since the last run is a delete); then connections and other contacts each by sync token.
 * With no cursor a full listing asks for sync tokens (`requestSyncToken`), which come with each list's
 * last page; with one, only the changes since (a person with `metadata.deleted` is a delete). People
 * shows a write to sync requests only after a propagation delay ("several minutes"): a change missed by
 * one run is in a later one. A sync token expires 7 days after its full sync (400 FAILED_PRECONDITION,
 * reason EXPIRED_SYNC_TOKEN): the run then lists everything again, `resynced`. The fixed extra quota of
 * a full sync's first page answers 429, which the caller retries as any quota answer.
 *
 * Photos are downloaded from their URL (no token: Google serves them publicly, not through the People
 * API, so no quota is spent); the download is injected so tests reach the emulator's URLs. A failed
 * download leaves the contact unread this run (`ItemNotReadError`), never the run failed.
 *
 * Cursor (`listing.ts`): `{"contacts":1,"tokens":{"connections":…,"otherContacts":…},"groups":[…]}`,
 * during a listing also the list and page token it resumes at (`"at"`, and `"full":true` in a full one).
 */
import { createHash } from "node:crypto";
import type { people_v1 } from "@googleapis/people";
import type { GoogleCaller } from "../google/caller";
import { googleStatus } from "../sources/google-errors";
import {
  ItemGoneError,
  ItemNotReadError,
  type Change,
  type ChangeBatch,
  type FetchedItem,
  type ItemMetadata,
  type ItemRef,
  type SearchFields,
  type Source,
} from "../sources/source";
import type { SyncTokenCollection, SyncTokenPage } from "../sources/sync-token-listing";
import { contactsChanges, type ContactsListing } from "./listing";
import { PEOPLE_CONNECTIONS_PAGE_SIZE } from "./limits";
import {
  GROUP_FIELDS,
  MAX_GROUP_MEMBERS,
  OTHER_CONTACT_FIELDS,
  PERSON_FIELDS,
  PHOTO_FIELD,
  imageType,
  itemKeyOf,
  ownPhoto,
  parseItemKey,
  peopleCall,
  type BackedUpPerson,
  type PeopleCall,
} from "./people";
import { groupName, groupSearchFields, personSearchFields } from "./search-fields";

export interface ContactsSourceOptions {
  /** The user's People client (delegated to `user`). */
  people: people_v1.People;
  /** The user's address: whose quota the calls spend. */
  user: string;
  caller: GoogleCaller;
  /** Aborts the run's calls (the worker nears its deadline). */
  signal?: AbortSignal;
  /** Page size of the lists (Google's maximum, 1,000, unless a test asks for less). */
  pageSize?: number;
  /** Downloads a photo from its URL (default: a plain GET, as Google's photo URLs need no token). */
  fetchPhoto?: (url: string) => Promise<Buffer>;
}

/** A page of a list: of its full listing (no sync token), or of its changes since `syncToken`. */
interface PageRequest {
  syncToken?: string;
  pageToken?: string;
}

/** System groups every contact is in: naming them in a contact's search fields would find every contact. */
const UNSEARCHED_GROUPS = new Set(["contactGroups/myContacts", "contactGroups/all"]);

async function downloadPhoto(url: string): Promise<Buffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The photo download answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** The listing's hint when it is the person (or group) `resourceName` names. */
function hinted<T extends { resourceName?: string | null }>(
  hint: unknown,
  resourceName: string,
): T | undefined {
  return typeof hint === "object" && hint !== null && (hint as T).resourceName === resourceName
    ? (hint as T)
    : undefined;
}

/** A fetched item from its content (one buffer: a contact is a few kilobytes). */
function fetchedItem(
  itemKey: string,
  etag: string | null | undefined,
  content: unknown,
  metadata: ItemMetadata,
  search: SearchFields,
): FetchedItem {
  const bytes = Buffer.from(JSON.stringify(content), "utf8");
  const contentKey = createHash("sha256").update(bytes).digest("hex");
  return {
    itemKey,
    // Google gives every person and group an etag; without one the content stands for the version.
    versionKey: etag ?? contentKey,
    contentKey,
    content: (async function* () {
      yield bytes;
    })(),
    size: bytes.length,
    metadata,
    search,
  };
}

export class ContactsSource implements Source {
  readonly kind = "contacts" as const;
  private readonly people: people_v1.People;
  private readonly call: PeopleCall;
  private readonly pageSize: number;
  private readonly fetchPhoto: (url: string) => Promise<Buffer>;
  /** The user's contact groups' names by resource name, read with the groups at the start of a run. */
  private groupNames: Map<string, string> | undefined;

  constructor(options: ContactsSourceOptions) {
    this.people = options.people;
    this.call = peopleCall(options.caller, options.user, options.signal);
    this.pageSize = options.pageSize ?? PEOPLE_CONNECTIONS_PAGE_SIZE;
    this.fetchPhoto = options.fetchPhoto ?? downloadPhoto;
  }

  /** What the Contacts listing needs from People (see `listing.ts`). */
  private readonly listing: ContactsListing = {
    readGroups: () => this.listGroups(),
    lists: [
      { key: "connections", collection: this.syncList((request) => this.connectionsPage(request)) },
      { key: "otherContacts", collection: this.syncList((request) => this.otherContactsPage(request)) },
    ],
  };

  listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    return contactsChanges(this.listing, cursor);
  }

  /**
   * A list as the shared sync-token steps page it. An expired token is not the list's to resync alone
   * (`listing.ts` lists the whole stream again): `isExpired` says no and the error reaches the listing.
   */
  private syncList(page: (request: PageRequest) => Promise<SyncTokenPage>): SyncTokenCollection {
    return {
      fullPage: (pageToken) => page(pageToken ? { pageToken } : {}),
      changesPage: (syncToken, pageToken) => page({ syncToken, ...(pageToken ? { pageToken } : {}) }),
      isExpired: () => false,
    };
  }

  /** The changes of one page of persons: a deleted one (incremental lists only) is a delete. */
  private personChanges(kind: "contact" | "other-contact", persons: people_v1.Schema$Person[]): Change[] {
    return persons.flatMap((person): Change[] => {
      if (!person.resourceName) return [];
      const itemKey = itemKeyOf(kind, person.resourceName);
      if (person.metadata?.deleted) return [{ type: "delete", itemKey }];
      return [
        {
          type: "upsert",
          item: { itemKey, ...(person.etag ? { versionKey: person.etag } : {}), hint: person },
        },
      ];
    });
  }

  private async connectionsPage(request: PageRequest): Promise<SyncTokenPage> {
    const { data } = await this.call("people.people.connections.list", true, () =>
      this.people.people.connections.list({
        resourceName: "people/me",
        personFields: PERSON_FIELDS,
        pageSize: this.pageSize,
        // Asked on every page: "all other parameters … must match the first call" of a listing.
        requestSyncToken: true,
        ...request,
      }),
    );
    return {
      changes: this.personChanges("contact", data.connections ?? []),
      ...(data.nextPageToken ? { nextPageToken: data.nextPageToken } : {}),
      ...(data.nextSyncToken ? { nextSyncToken: data.nextSyncToken } : {}),
    };
  }

  private async otherContactsPage(request: PageRequest): Promise<SyncTokenPage> {
    const { data } = await this.call("people.otherContacts.list", true, () =>
      this.people.otherContacts.list({
        readMask: OTHER_CONTACT_FIELDS,
        pageSize: this.pageSize,
        requestSyncToken: true,
        ...request,
      }),
    );
    return {
      changes: this.personChanges("other-contact", data.otherContacts ?? []),
      ...(data.nextPageToken ? { nextPageToken: data.nextPageToken } : {}),
      ...(data.nextSyncToken ? { nextSyncToken: data.nextSyncToken } : {}),
    };
  }

  /** Every contact group (system ones too, for their names); the user groups as upserts. */
  private async listGroups(): Promise<Extract<Change, { type: "upsert" }>[]> {
    const names = new Map<string, string>();
    const upserts: Extract<Change, { type: "upsert" }>[] = [];
    let pageToken: string | undefined;
    do {
      const { data } = await this.call("people.contactGroups.list", true, () =>
        this.people.contactGroups.list({
          pageSize: PEOPLE_CONNECTIONS_PAGE_SIZE,
          groupFields: GROUP_FIELDS,
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      for (const group of data.contactGroups ?? []) {
        if (!group.resourceName || group.metadata?.deleted) continue;
        names.set(group.resourceName, groupName(group));
        if (group.groupType !== "USER_CONTACT_GROUP") continue;
        upserts.push({
          type: "upsert",
          item: {
            itemKey: itemKeyOf("group", group.resourceName),
            ...(group.etag ? { versionKey: group.etag } : {}),
            hint: group,
          },
        });
      }
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    this.groupNames = names;
    return upserts;
  }

  /** The names of the groups a contact is in (read once per run). */
  private async groupsOf(person: people_v1.Schema$Person): Promise<string[]> {
    if (!this.groupNames) await this.listGroups();
    const names = this.groupNames ?? new Map<string, string>();
    return (person.memberships ?? []).flatMap((membership) => {
      const resourceName = membership.contactGroupMembership?.contactGroupResourceName;
      if (!resourceName || UNSEARCHED_GROUPS.has(resourceName)) return [];
      const name = names.get(resourceName);
      return name ? [name] : [];
    });
  }

  async fetch(item: ItemRef): Promise<FetchedItem> {
    const parsed = parseItemKey(item.itemKey);
    // Not a key this source makes: nothing of the user's contacts is named by it.
    if (!parsed) throw new ItemGoneError(item.itemKey);
    switch (parsed.kind) {
      case "contact":
        return this.fetchContact(item, parsed.resourceName);
      case "group":
        return this.fetchGroup(item, parsed.resourceName);
      case "other-contact":
        return this.fetchOtherContact(item, parsed.resourceName);
    }
  }

  /** A person's content: as Google returned it, with its own photo's bytes. */
  private async personContent(itemKey: string, person: people_v1.Schema$Person): Promise<BackedUpPerson> {
    const photo = ownPhoto(person);
    if (!photo?.url) return person;
    let bytes: Buffer;
    try {
      bytes = await this.fetchPhoto(photo.url);
    } catch {
      throw new ItemNotReadError(itemKey, "photo-not-downloaded");
    }
    return { ...person, [PHOTO_FIELD]: { contentType: imageType(bytes), data: bytes.toString("base64") } };
  }

  private async fetchContact(item: ItemRef, resourceName: string): Promise<FetchedItem> {
    let person = hinted<people_v1.Schema$Person>(item.hint, resourceName);
    if (!person) {
      try {
        ({ data: person } = await this.call("people.people.get", true, () =>
          this.people.people.get({ resourceName, personFields: PERSON_FIELDS }),
        ));
      } catch (error) {
        if (googleStatus(error) === 404) throw new ItemGoneError(item.itemKey);
        throw error;
      }
    }
    const content = await this.personContent(item.itemKey, person);
    return fetchedItem(
      item.itemKey,
      person.etag,
      content,
      { contactEntry: "contact", resourceName },
      personSearchFields(person, "contact", await this.groupsOf(person)),
    );
  }

  /** A group with its members' resource names (contactGroups.list does not name them). */
  private async fetchGroup(item: ItemRef, resourceName: string): Promise<FetchedItem> {
    let group: people_v1.Schema$ContactGroup;
    try {
      ({ data: group } = await this.call("people.contactGroups.get", true, () =>
        this.people.contactGroups.get({
          resourceName,
          maxMembers: MAX_GROUP_MEMBERS,
          groupFields: GROUP_FIELDS,
        }),
      ));
    } catch (error) {
      if (googleStatus(error) === 404) throw new ItemGoneError(item.itemKey);
      throw error;
    }
    return fetchedItem(
      item.itemKey,
      group.etag,
      group,
      { contactEntry: "group", resourceName },
      groupSearchFields(group),
    );
  }

  /**
   * An other contact: People has no `otherContacts.get`, so one fetched without the listing's hint (an
   * integrity refetch) is looked for in the list, page by page.
   */
  private async fetchOtherContact(item: ItemRef, resourceName: string): Promise<FetchedItem> {
    let person = hinted<people_v1.Schema$Person>(item.hint, resourceName);
    let pageToken: string | undefined;
    while (!person) {
      const { data } = await this.call("people.otherContacts.list", true, () =>
        this.people.otherContacts.list({
          readMask: OTHER_CONTACT_FIELDS,
          pageSize: this.pageSize,
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      person = (data.otherContacts ?? []).find((candidate) => candidate.resourceName === resourceName);
      pageToken = data.nextPageToken ?? undefined;
      if (!person && !pageToken) throw new ItemGoneError(item.itemKey);
    }
    const content = await this.personContent(item.itemKey, person);
    return fetchedItem(
      item.itemKey,
      person.etag,
      content,
      { contactEntry: "other-contact", resourceName },
      personSearchFields(person, "other-contact", []),
    );
  }
}
