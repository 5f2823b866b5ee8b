/**
 * Contacts, "Other contacts", contact groups and contact photos per user, on the emulator's clock; with
 * snapshot, restore and dropUser like the Gmail and Drive stores. Every change bumps the item's version
 * (its etag) and its `updatedAt`, which the sync tokens compare against (see `sync.ts`).
 */
import {
  type AddressBook,
  DEFAULT_PEOPLE_SETTINGS,
  MEMBER_SYSTEM_GROUPS,
  type PeopleSettings,
  type PeopleSnapshot,
  type StoredContact,
  type StoredGroup,
  type StoredPhoto,
  SYSTEM_GROUPS,
} from "./model";
import { peopleError } from "./errors";

export interface NewContact {
  fields: Record<string, Record<string, unknown>[]>;
  groups?: string[];
  photo?: Omit<StoredPhoto, "id">;
  kind?: "contact" | "other";
}

export class PeopleStore {
  private readonly books = new Map<string, AddressBook>();
  private nextId = 1;
  private seq = 0;
  settings: PeopleSettings = { ...DEFAULT_PEOPLE_SETTINGS };

  constructor(readonly now: () => number) {}

  book(userId: string): AddressBook {
    let book = this.books.get(userId);
    if (!book) {
      book = { userId, contacts: new Map(), groups: new Map(), tokensExpiredAt: 0 };
      for (const [id, name] of Object.entries(SYSTEM_GROUPS)) {
        // System groups exist since the account does: they are in every sync's full listing.
        book.groups.set(id, { id, name, system: true, version: 1, seq: 0, createdAt: 0, updatedAt: 0 });
      }
      this.books.set(userId, book);
    }
    return book;
  }

  /** A decimal id like Google's contact ids (resource name `people/c<id>`). */
  private newId(): string {
    const id = 7_000_000_000_000_000n + BigInt(this.nextId) * 7919n;
    this.nextId += 1;
    return id.toString();
  }

  liveContacts(userId: string, kind: "contact" | "other" = "contact"): StoredContact[] {
    return [...this.book(userId).contacts.values()].filter((c) => c.kind === kind && !c.deleted);
  }

  /**
   * Adds contacts at once, or refuses them all beyond the user's contact limit. `ageMs` (set-up only)
   * makes them as a user made them that long ago, past sync's propagation delay.
   */
  addContacts(userId: string, inputs: NewContact[], ageMs = 0): StoredContact[] {
    const book = this.book(userId);
    const mine = inputs.filter((input) => (input.kind ?? "contact") === "contact").length;
    if (this.liveContacts(userId).length + mine > this.settings.contactLimit) {
      throw peopleError(
        400,
        `Contact limit exceeded: a user may keep at most ${this.settings.contactLimit} contacts.`,
        "FAILED_PRECONDITION",
      );
    }
    const at = this.now() - ageMs;
    return inputs.map((input) => {
      const id = this.newId();
      const kind = input.kind ?? "contact";
      const groups = kind === "other" ? [] : (input.groups ?? ["myContacts"]);
      for (const group of groups) this.group(userId, group);
      const contact: StoredContact = {
        id,
        kind,
        fields: structuredClone(input.fields),
        groups: [...new Set(groups)],
        version: 1,
        seq: (this.seq += 1),
        createdAt: at,
        updatedAt: at,
        ...(input.photo ? { photo: { ...input.photo, id: `${id}-1` } } : {}),
      };
      book.contacts.set(id, contact);
      return contact;
    });
  }

  /** A live contact (`kind` contact unless asked), or Google's 404. */
  contact(userId: string, id: string, kind: "contact" | "other" = "contact"): StoredContact {
    const contact = this.book(userId).contacts.get(id);
    if (!contact || contact.deleted || contact.kind !== kind) throw notFoundError();
    return contact;
  }

  private touch(item: { version: number; seq: number; updatedAt: number }): void {
    item.version += 1;
    item.seq = this.seq += 1;
    item.updatedAt = Math.max(this.now(), item.updatedAt);
  }

  deleteContact(userId: string, id: string): void {
    const contact = this.contact(userId, id);
    contact.deleted = true;
    contact.fields = {};
    delete contact.photo;
    for (const group of contact.groups) this.touchGroup(userId, group);
    contact.groups = [];
    this.touch(contact);
  }

  /**
   * people.updateContact: each field given replaced (an empty list clears it), and with `groups` the
   * contact's memberships (the groups it joins or leaves change too).
   */
  updateContact(
    userId: string,
    id: string,
    fields: Record<string, Record<string, unknown>[]>,
    groups?: string[],
  ): StoredContact {
    const contact = this.contact(userId, id);
    for (const [field, items] of Object.entries(fields)) {
      if (items.length > 0) contact.fields[field] = structuredClone(items);
      else delete contact.fields[field];
    }
    if (groups) {
      for (const group of groups) this.group(userId, group);
      const next = [...new Set(groups)];
      for (const group of new Set([...contact.groups, ...next])) {
        if (contact.groups.includes(group) !== next.includes(group)) this.touchGroup(userId, group);
      }
      contact.groups = next;
    }
    this.touch(contact);
    return contact;
  }

  setPhoto(userId: string, id: string, photo: Omit<StoredPhoto, "id">): StoredContact {
    const contact = this.contact(userId, id);
    this.touch(contact);
    contact.photo = { ...photo, id: `${contact.id}-${contact.version}` };
    return contact;
  }

  /** The photo a URL names (any user's: Google's photo URLs need no token). */
  photo(photoId: string): StoredPhoto | undefined {
    for (const book of this.books.values()) {
      for (const contact of book.contacts.values()) if (contact.photo?.id === photoId) return contact.photo;
    }
    return undefined;
  }

  groups(userId: string): StoredGroup[] {
    return [...this.book(userId).groups.values()];
  }

  group(userId: string, id: string): StoredGroup {
    const group = this.book(userId).groups.get(id);
    if (!group || group.deleted) throw notFoundError();
    return group;
  }

  private touchGroup(userId: string, id: string): void {
    const group = this.book(userId).groups.get(id);
    if (group) this.touch(group);
  }

  createGroup(userId: string, name: string, clientData?: StoredGroup["clientData"]): StoredGroup {
    const book = this.book(userId);
    const taken = [...book.groups.values()].some(
      (group) => !group.deleted && (group.name === name || SYSTEM_GROUPS[group.id] === name),
    );
    if (taken) throw peopleError(409, "Contact group name already exists.", "ALREADY_EXISTS");
    const at = this.now();
    const id = (BigInt(this.newId()) % 0xffffffffffffn).toString(16);
    const group: StoredGroup = {
      id,
      name,
      system: false,
      version: 1,
      seq: (this.seq += 1),
      createdAt: at,
      updatedAt: at,
      ...(clientData ? { clientData } : {}),
    };
    book.groups.set(id, group);
    return group;
  }

  /** contactGroups.update: a user group's name and client data (a name another group has: 409). */
  updateGroup(
    userId: string,
    id: string,
    change: { name?: string; clientData?: StoredGroup["clientData"] },
  ): StoredGroup {
    const group = this.group(userId, id);
    if (change.name !== undefined) {
      const taken = [...this.book(userId).groups.values()].some(
        (other) =>
          other.id !== id &&
          !other.deleted &&
          (other.name === change.name || SYSTEM_GROUPS[other.id] === change.name),
      );
      if (taken) throw peopleError(409, "Contact group name already exists.", "ALREADY_EXISTS");
      group.name = change.name;
    }
    if (change.clientData !== undefined) {
      if (change.clientData.length > 0) group.clientData = change.clientData;
      else delete group.clientData;
    }
    this.touch(group);
    return group;
  }

  /**
   * contactGroups.delete: the group becomes a tombstone (for sync); its members leave it, or with
   * `deleteContacts` are deleted.
   */
  deleteGroup(userId: string, id: string, deleteContacts: boolean): void {
    const group = this.group(userId, id);
    for (const contact of this.members(userId, id)) {
      if (deleteContacts) {
        this.deleteContact(userId, contact.id);
        continue;
      }
      contact.groups = contact.groups.filter((other) => other !== id);
      this.touch(contact);
    }
    group.deleted = true;
    delete group.clientData;
    this.touch(group);
  }

  members(userId: string, groupId: string): StoredContact[] {
    return this.liveContacts(userId).filter((contact) => contact.groups.includes(groupId));
  }

  /** contactGroups.members.modify: what could not be found, and contacts whose last group it was. */
  modifyMembers(
    userId: string,
    groupId: string,
    add: string[],
    remove: string[],
  ): { notFound: string[]; lastGroup: string[] } {
    const group = this.group(userId, groupId);
    if (group.system && !MEMBER_SYSTEM_GROUPS.has(group.id)) {
      throw peopleError(400, `Cannot modify members of system contact group ${group.id}.`);
    }
    const notFound: string[] = [];
    const lastGroup: string[] = [];
    const find = (name: string): StoredContact | undefined => {
      const contact = this.book(userId).contacts.get(name.replace(/^people\/c/, ""));
      if (!name.startsWith("people/c") || !contact || contact.deleted || contact.kind !== "contact") {
        notFound.push(name);
        return undefined;
      }
      return contact;
    };
    for (const name of add) {
      const contact = find(name);
      if (contact && !contact.groups.includes(groupId)) {
        contact.groups.push(groupId);
        this.touch(contact);
      }
    }
    for (const name of remove) {
      const contact = find(name);
      if (!contact || !contact.groups.includes(groupId)) continue;
      if (contact.groups.length === 1) {
        lastGroup.push(name);
        continue;
      }
      contact.groups = contact.groups.filter((id) => id !== groupId);
      this.touch(contact);
    }
    this.touch(group);
    return { notFound, lastGroup };
  }

  /** Expires every sync token of the user issued so far (the admin API). */
  expireSyncTokens(userId: string): void {
    this.book(userId).tokensExpiredAt = this.now() + 1;
  }

  dropUser(userId: string): void {
    this.books.delete(userId);
  }

  snapshot(): PeopleSnapshot {
    return structuredClone({
      nextId: this.nextId,
      seq: this.seq,
      settings: this.settings,
      books: [...this.books.values()].map((book) => ({
        userId: book.userId,
        contacts: [...book.contacts.values()],
        groups: [...book.groups.values()],
        tokensExpiredAt: book.tokensExpiredAt,
      })),
    });
  }

  restore(snapshot: PeopleSnapshot | undefined): void {
    this.books.clear();
    this.nextId = snapshot?.nextId ?? 1;
    this.seq = snapshot?.seq ?? 0;
    this.settings = { ...DEFAULT_PEOPLE_SETTINGS, ...(snapshot?.settings ?? {}) };
    for (const saved of structuredClone(snapshot?.books ?? [])) {
      this.books.set(saved.userId, {
        userId: saved.userId,
        contacts: new Map(saved.contacts.map((contact) => [contact.id, contact])),
        groups: new Map(saved.groups.map((group) => [group.id, group])),
        tokensExpiredAt: saved.tokensExpiredAt,
      });
    }
  }
}

export function notFoundError(): Error {
  return peopleError(404, "Requested entity was not found.", "NOT_FOUND");
}
