/**
 * Restoring backed-up contacts to a user (the original one or another), through the People API:
 * 1. the contacts, with `people.batchCreateContacts`, 200 a call (Google's maximum), each with every field
 *    a contact keeps and none Google assigns (resource name, etag, metadata, photos, memberships; items of
 *    a linked profile, which are not the contact's own). A call Google refuses for what one contact holds
 *    refuses the whole call: it is split in halves until the refused contacts are alone, each reported
 *    with Google's reason while the others are created. A full address book (Google's contact limit,
 *    400 FAILED_PRECONDITION) refuses the rest with the same reason without asking again;
 * 2. each restored contact's photo (`people.updateContactPhoto`, the backed-up bytes);
 * 3. the memberships: every restored contact into the recovery's group (`target.group`, e.g. "Restored
 *    2026-12-01", created once with `contactGroups.create` unless the user has it), and into its own
 *    backed-up user groups, found at the target by name or created, and Starred when it was starred, with
 *    `contactGroups.members.modify` (1,000 names a call, Google's maximum).
 * Other contacts are restored as contacts: Google has no API that creates an other contact (they are
 * made by Gmail only). A backed-up group entry is restored as the group of its name (found or created).
 *
 * One user's writes go one after another, as Google asks ("Mutate requests for the same user should be
 * sent sequentially", people.batchCreateContacts): a restorer runs one restore at a time. Every call goes
 * through the caller; creates are repeated only when Google did not run them. One entry's refusal is in
 * its outcome, never thrown; a failure that is no entry's (access withdrawn, quota spent) is thrown.
 */
import type { people_v1 } from "@googleapis/people";
import type { GoogleCaller } from "../google/caller";
import { classifyGoogleError } from "../google/errors";
import { PEOPLE_BATCH_CREATE_SIZE } from "./limits";
import { chunks, existingEntries, restoreTagEntry, taggedContacts, type RestoreTag } from "./restore-lookups";
import {
  GROUP_FIELDS,
  PHOTO_FIELD,
  WRITABLE_PERSON_FIELDS,
  googleRefusal,
  peopleCall,
  type BackedUpGroup,
  type BackedUpPerson,
  type ContactsEntry,
  type PeopleCall,
} from "./people";

/** A backed-up entry: its version's metadata and content bytes. */
export type ContactsRestoreEntry = ContactsEntry;

export interface ContactsRestoreTarget {
  /** The user the entries are restored to (the restorer's client acts as this user). */
  user: string;
  /** The group every restored contact is put into ("Restored 2026-12-01"). */
  group?: string;
  /**
   * A restore in parts (a recovery's deliveries): each contact created carries this tag and its backed-up
   * resource name in its client data (`RESTORE_TAG_KEY`), signed with the tag's secret, so that `tagged`
   * finds what a part that stopped had created, and nothing else.
   */
  tag?: RestoreTag;
}

/** What became of one entry, in the order of the entries. */
export interface ContactRestoreOutcome {
  /** The backed-up resource name. */
  from: string;
  restored: boolean;
  /** The restored contact's new resource name, or the group's found or created at the target. */
  resourceName?: string;
  /** Why it was not restored, in Google's words. */
  reason?: string;
  /** What of it was not restored (its photo, a group), in Google's words. */
  problems: string[];
  /** How it was restored when not as it was (an other contact as a contact). */
  note?: string;
}

/** Resource names per `contactGroups.members.modify` call: Google's maximum. */
export const MEMBERS_MODIFY_SIZE = 1_000;

/**
 * Google's system groups. Of them, a membership is restored to Starred only: My Contacts holds every
 * created contact already, and the others take no members (contactGroups.members.modify).
 */
const SYSTEM_GROUPS = new Set(
  ["myContacts", "starred", "friends", "family", "coworkers", "chatBuddies", "all", "blocked"].map(
    (id) => `contactGroups/${id}`,
  ),
);
const RESTORED_SYSTEM_GROUPS = new Set(["contactGroups/starred"]);
export const OTHER_CONTACT_NOTE =
  "Restored as a contact: Google has no API to create an other contact (Gmail alone makes them).";

/** A contact to create: its outcome, body, photo and backed-up groups. */
interface Pending {
  outcome: ContactRestoreOutcome;
  body: people_v1.Schema$Person;
  photo?: string;
  groups: string[];
}

/**
 * A contact's body for `contactPerson`: the writable fields, items of the contact's own source only (not
 * those of a linked profile), without Google's item metadata.
 */
export function contactBody(person: BackedUpPerson): people_v1.Schema$Person {
  const body: Record<string, unknown> = {};
  for (const field of WRITABLE_PERSON_FIELDS) {
    const items = (person as Record<string, unknown>)[field];
    if (!Array.isArray(items)) continue;
    const own = (items as { metadata?: people_v1.Schema$FieldMetadata }[])
      .filter((item) =>
        ["CONTACT", "OTHER_CONTACT", undefined].includes(item.metadata?.source?.type ?? undefined),
      )
      .map(({ metadata: _metadata, ...item }) => item);
    if (own.length > 0) body[field] = own;
  }
  return body as people_v1.Schema$Person;
}

function groupsOf(person: BackedUpPerson): string[] {
  return (person.memberships ?? []).flatMap((membership) => {
    const group = membership.contactGroupMembership;
    const name =
      group?.contactGroupResourceName ??
      (group?.contactGroupId ? `contactGroups/${group.contactGroupId}` : undefined);
    return name ? [name] : [];
  });
}

/** A refusal about what the request carried (a 4xx that is not about access or quota). */
function refusesRequest(error: unknown): boolean {
  return classifyGoogleError(error).kind === "item";
}

/** Google's contact limit: the address book is full, whatever the contact. */
function addressBookFull(error: unknown): boolean {
  return /^400 FAILED_PRECONDITION/.test(googleRefusal(error));
}

export class ContactsRestorer {
  private readonly call: PeopleCall;
  /** The restore in progress: the next waits for it (one user's writes one after another). */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly people: people_v1.People,
    private readonly user: string,
    caller: GoogleCaller,
  ) {
    this.call = peopleCall(caller, user);
  }

  /** Restores `entries` to the target user; one outcome per entry, in their order. */
  restore(
    entries: readonly ContactsRestoreEntry[],
    target: ContactsRestoreTarget,
    options: { groupNames?: Readonly<Record<string, string>> } = {},
  ): Promise<ContactRestoreOutcome[]> {
    if (target.user !== this.user) {
      return Promise.reject(new Error(`This restorer writes as ${this.user}, not as ${target.user}`));
    }
    const run = this.tail.then(() =>
      new RestoreRun(this.people, this.call, target, options.groupNames).run(entries),
    );
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The contacts of the target user a restore tagged `tag` created, by backed-up resource name. */
  tagged(tag: RestoreTag): Promise<Map<string, string>> {
    return taggedContacts(this.people, this.call, tag);
  }

  /** Which of these contacts' and other contacts' resource names the target user still has. */
  existing(resourceNames: readonly string[]): Promise<Set<string>> {
    return existingEntries(this.people, this.call, resourceNames);
  }
}

/** One restore: the entries' contacts created, their photos set, their groups filled. */
class RestoreRun {
  /** The reason every further contact is refused once the address book is full. */
  private full: string | undefined;
  /** The target's user groups, name → resource name (read once). */
  private groups: Map<string, string> | undefined;
  private readonly names = new Map<string, string>();

  constructor(
    private readonly people: people_v1.People,
    private readonly call: PeopleCall,
    private readonly target: ContactsRestoreTarget,
    groupNames: Readonly<Record<string, string>> = {},
  ) {
    for (const [resourceName, name] of Object.entries(groupNames)) this.names.set(resourceName, name);
  }

  async run(entries: readonly ContactsRestoreEntry[]): Promise<ContactRestoreOutcome[]> {
    const outcomes: ContactRestoreOutcome[] = [];
    const pending: Pending[] = [];
    const groupEntries: { outcome: ContactRestoreOutcome; name: string }[] = [];
    for (const entry of entries) {
      const outcome: ContactRestoreOutcome = {
        from: entry.metadata.resourceName ?? "",
        restored: false,
        problems: [],
        ...(entry.metadata.contactEntry === "other-contact" ? { note: OTHER_CONTACT_NOTE } : {}),
      };
      outcomes.push(outcome);
      let content: BackedUpPerson & BackedUpGroup;
      try {
        content = JSON.parse(entry.content.toString("utf8")) as BackedUpPerson & BackedUpGroup;
      } catch {
        outcome.reason = "The backed-up content is not a People resource.";
        continue;
      }
      if (entry.metadata.contactEntry === "group") {
        const name = content.name ?? content.formattedName ?? "";
        if (content.resourceName && name) this.names.set(content.resourceName, name);
        groupEntries.push({ outcome, name });
        continue;
      }
      const body = contactBody(content);
      if (this.target.tag)
        body.clientData = [...(body.clientData ?? []), restoreTagEntry(this.target.tag, outcome.from)];
      pending.push({
        outcome,
        body,
        ...(content[PHOTO_FIELD]?.data ? { photo: content[PHOTO_FIELD].data } : {}),
        groups: groupsOf(content),
      });
    }
    for (const chunk of chunks(pending, PEOPLE_BATCH_CREATE_SIZE)) await this.create(chunk);
    const restored = pending.filter((item) => item.outcome.restored);
    for (const item of restored) if (item.photo) await this.setPhoto(item);
    await this.fillGroups(restored);
    for (const { outcome, name } of groupEntries) await this.restoreGroup(outcome, name);
    return outcomes;
  }

  /** One `batchCreateContacts` call, split in halves when Google refuses what it carries. */
  private async create(chunk: Pending[]): Promise<void> {
    if (this.full !== undefined) {
      for (const item of chunk) item.outcome.reason = this.full;
      return;
    }
    let created: people_v1.Schema$PersonResponse[];
    try {
      ({
        data: { createdPeople: created = [] },
      } = await this.call("people.people.batchCreateContacts", false, () =>
        this.people.people.batchCreateContacts({
          requestBody: {
            readMask: "metadata",
            contacts: chunk.map((item) => ({ contactPerson: item.body })),
          },
        }),
      ));
    } catch (error) {
      if (!refusesRequest(error)) throw error;
      if (chunk.length === 1) {
        const reason = googleRefusal(error);
        if (addressBookFull(error)) this.full = reason;
        (chunk[0] as Pending).outcome.reason = reason;
        return;
      }
      const half = Math.ceil(chunk.length / 2);
      await this.create(chunk.slice(0, half));
      await this.create(chunk.slice(half));
      return;
    }
    // Google answers the created contacts in the order they were asked for.
    chunk.forEach((item, index) => {
      const answer = created[index];
      const resourceName = answer?.person?.resourceName;
      if (resourceName && !answer.status?.code) {
        Object.assign(item.outcome, { restored: true, resourceName });
      } else {
        item.outcome.reason = answer?.status?.message ?? "Google did not answer this contact.";
      }
    });
  }

  private async setPhoto(item: Pending): Promise<void> {
    try {
      await this.call("people.people.updateContactPhoto", true, () =>
        this.people.people.updateContactPhoto({
          resourceName: item.outcome.resourceName ?? "",
          requestBody: { photoBytes: item.photo ?? "" },
        }),
      );
    } catch (error) {
      if (!refusesRequest(error)) throw error;
      item.outcome.problems.push(`Photo not restored: ${googleRefusal(error)}`);
    }
  }

  /** The target's user groups by name (read once per restore). */
  private async userGroups(): Promise<Map<string, string>> {
    if (this.groups) return this.groups;
    const groups = new Map<string, string>();
    let pageToken: string | undefined;
    do {
      const { data } = await this.call("people.contactGroups.list", true, () =>
        this.people.contactGroups.list({
          pageSize: 1_000,
          groupFields: GROUP_FIELDS,
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      for (const group of data.contactGroups ?? []) {
        if (group.groupType === "USER_CONTACT_GROUP" && group.name && group.resourceName)
          groups.set(group.name, group.resourceName);
      }
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return (this.groups = groups);
  }

  /** The target's user group of that name, created when it has none. */
  private async groupNamed(name: string): Promise<string> {
    const groups = await this.userGroups();
    const found = groups.get(name);
    if (found) return found;
    const { data } = await this.call("people.contactGroups.create", false, () =>
      this.people.contactGroups.create({ requestBody: { contactGroup: { name } } }),
    );
    if (!data.resourceName) throw new Error("contactGroups.create answered no resource name");
    groups.set(name, data.resourceName);
    return data.resourceName;
  }

  /** Where a backed-up membership goes at the target, or why nowhere. */
  private async groupAtTarget(backedUp: string): Promise<string | { problem: string } | undefined> {
    if (RESTORED_SYSTEM_GROUPS.has(backedUp)) return backedUp;
    if (SYSTEM_GROUPS.has(backedUp)) return undefined;
    const name = this.names.get(backedUp);
    if (name) return this.groupNamed(name);
    const same = [...(await this.userGroups()).values()].includes(backedUp);
    return same ? backedUp : { problem: `Group ${backedUp} not restored: its name is not in the backup.` };
  }

  /** Every restored contact into the recovery's group and its own groups. */
  private async fillGroups(restored: Pending[]): Promise<void> {
    const members = new Map<string, Pending[]>();
    const add = (group: string, item: Pending) => members.set(group, [...(members.get(group) ?? []), item]);
    const recovery =
      this.target.group && restored.length > 0 ? await this.groupNamed(this.target.group) : undefined;
    for (const item of restored) {
      if (recovery) add(recovery, item);
      for (const backedUp of item.groups) {
        try {
          const group = await this.groupAtTarget(backedUp);
          if (typeof group === "string") add(group, item);
          else if (group) item.outcome.problems.push(group.problem);
        } catch (error) {
          if (!refusesRequest(error)) throw error;
          item.outcome.problems.push(`Group not restored: ${googleRefusal(error)}`);
        }
      }
    }
    for (const [group, items] of members) {
      for (const chunk of chunks(items, MEMBERS_MODIFY_SIZE)) await this.addMembers(group, chunk);
    }
  }

  private async addMembers(group: string, items: Pending[]): Promise<void> {
    try {
      const { data } = await this.call("people.contactGroups.members.modify", true, () =>
        this.people.contactGroups.members.modify({
          resourceName: group,
          requestBody: { resourceNamesToAdd: items.map((item) => item.outcome.resourceName ?? "") },
        }),
      );
      const missing = new Set(data.notFoundResourceNames ?? []);
      for (const item of items) {
        if (missing.has(item.outcome.resourceName ?? ""))
          item.outcome.problems.push(`Not added to ${group}: not found.`);
      }
    } catch (error) {
      if (!refusesRequest(error)) throw error;
      for (const item of items) item.outcome.problems.push(`Not added to ${group}: ${googleRefusal(error)}`);
    }
  }

  /** A backed-up group entry: the group of its name at the target. */
  private async restoreGroup(outcome: ContactRestoreOutcome, name: string): Promise<void> {
    if (!name) {
      outcome.reason = "The backed-up group has no name.";
      return;
    }
    try {
      Object.assign(outcome, { restored: true, resourceName: await this.groupNamed(name) });
    } catch (error) {
      if (!refusesRequest(error)) throw error;
      outcome.reason = googleRefusal(error);
    }
  }
}
