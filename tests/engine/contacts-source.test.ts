/**
 * The Contacts source against the Workspace emulator in-process (People v1), through the official People
 * client and the real quota-aware caller, on one `ManualClock` the tests move: full listing with every
 * field, photos, groups and other contacts; incremental after adds, changes and deletes (past People's
 * propagation delay); a resumed listing; an expired sync token; the 429 of a full sync's first page; a
 * user near Google's contact limit; the search fields.
 */
import { createHash } from "node:crypto";
import {
  addAwkwardPeople,
  type Harness,
  ManualClock,
  startHarness,
} from "../../emulators/workspace/src/index";
import type { BackedUpGroup, BackedUpPerson } from "../../functions/src/engine/contacts/people";
import {
  ItemGoneError,
  ItemNotReadError,
  type ContactSearchFields,
} from "../../functions/src/engine/sources/source";
import { quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import {
  MINUTE,
  PNG,
  PROPAGATED,
  addContacts,
  addGroup,
  backUp,
  contactsSource,
  grantPeopleScopes,
  newUser,
  peopleClient,
  richPerson,
  testCaller,
} from "../support/contacts";
import { bytesOf, collect } from "../support/engine-harness";

jest.setTimeout(120_000);

const DAY = 24 * 60 * MINUTE;
let harness: Harness;
const clock = new ManualClock();

beforeAll(async () => {
  harness = await startHarness({ clock, latency: { enabled: false } });
  await grantPeopleScopes(harness);
});
afterAll(() => harness.stop());

/** A test body run with the clock moving whenever everything waits for it. */
const driven = (body: () => Promise<void>) => () => clock.run(body());

const userIdOf = (user: string): string => harness.emulator.directory.user(user)?.id ?? "";
const keysOf = (batches: { changes: { type: string; item?: { itemKey: string }; itemKey?: string }[] }[]) =>
  batches.flatMap((batch) => batch.changes.map((change) => change.item?.itemKey ?? change.itemKey ?? ""));

/** A user with a group "Clients", three rich contacts (two with photos) and an other contact. */
async function addressBook(prefix: string) {
  const user = await newUser(harness, prefix);
  const clients = await addGroup(harness, user, "Clients");
  const [first, second, third] = await addContacts(harness, user, [
    { person: richPerson(1, ["myContacts", clients, "starred"]), photo: PNG },
    { person: richPerson(2, ["myContacts"]), photo: PNG },
    { person: richPerson(3, ["myContacts", clients]) },
  ]);
  const [other] = await addContacts(harness, user, [
    {
      person: {
        names: [{ displayName: "Saved From Mail" }],
        emailAddresses: [{ value: "Sender@Mail.Example" }],
      },
      other: true,
    },
  ]);
  await clock.advance(PROPAGATED);
  return { user, clients, contacts: [first, second, third] as string[], other: other as string };
}

test(
  "when a user's contacts are listed in full, then every contact with every field, its own photo's bytes, each user group with its members and each other contact are backed up under their prefixed keys",
  driven(async () => {
    const { user, clients, contacts, other } = await addressBook("full");
    const downloads: string[] = [];
    const source = contactsSource(harness, user, testCaller(clock), {
      pageSize: 2,
      fetchPhoto: async (url) => {
        downloads.push(url);
        return Buffer.from(await (await fetch(url)).arrayBuffer());
      },
    });

    const { entries, batches, cursor } = await backUp(source);

    // Groups, two pages of connections, one of other contacts.
    expect(batches.map((batch) => [batch.fullListing === true, batch.done === true])).toEqual([
      [true, false],
      [false, false],
      [false, false],
      [false, true],
    ]);
    expect(batches.some((batch) => batch.resynced)).toBe(false);
    expect(JSON.parse(cursor)).toMatchObject({ contacts: 1, groups: [`group:${clients}`] });
    expect(Object.keys(JSON.parse(cursor).tokens as object).sort()).toEqual(["connections", "otherContacts"]);
    const ids = contacts.map((name) => `contact:${name.replace("people/", "")}`);
    expect([...entries.keys()].sort()).toEqual(
      [...ids, `group:${clients}`, `other:${other.replace("otherContacts/", "")}`].sort(),
    );
    // Keys of other services (Gmail: 16 hex digits; Drive: no colon) can never be these.
    for (const key of entries.keys()) expect(key).toMatch(/^(contact|group|other):[0-9a-zA-Z]+$/);

    const people = peopleClient(harness, user);
    for (const [index, name] of contacts.entries()) {
      const entry = entries.get(ids[index] as string);
      const content = JSON.parse(entry?.content.toString("utf8") ?? "{}") as BackedUpPerson;
      const { data: google } = await people.people.get({
        resourceName: name,
        personFields:
          "addresses,biographies,birthdays,emailAddresses,events,memberships,metadata,names,nicknames,organizations,phoneNumbers,photos,relations,urls,userDefined",
      });
      const { alpvaultPhoto, ...person } = content;
      expect(person).toEqual(google);
      const made = richPerson(index + 1);
      // Google answers the names a contact was made with and the ones it computes (output only).
      const rich = {
        ...made,
        names: made.names?.map((name) => ({
          ...name,
          displayNameLastFirst: `${name.familyName ?? ""}, Dr. ${name.givenName ?? ""} Ann, PhD`,
          unstructuredName: name.displayName,
        })),
      };
      for (const field of [
        "names",
        "nicknames",
        "emailAddresses",
        "phoneNumbers",
        "addresses",
        "organizations",
        "birthdays",
        "biographies",
        "urls",
        "userDefined",
        "relations",
        "events",
      ] as const) {
        expect([field, person[field]?.map(({ metadata: _metadata, ...item }) => item)]).toEqual([
          field,
          rich[field],
        ]);
      }
      expect(entry?.metadata).toEqual({ contactEntry: "contact", resourceName: name });
      expect(entry?.versionKey).toBe(google.etag);
      expect(entry?.contentKey).toBe(
        createHash("sha256")
          .update(entry?.content ?? "")
          .digest("hex"),
      );
      if (index < 2)
        expect(alpvaultPhoto).toEqual({ contentType: "image/png", data: PNG.toString("base64") });
      else expect(alpvaultPhoto).toBeUndefined();
    }
    // Only the own photos were downloaded: never Google's default picture.
    expect(downloads).toHaveLength(2);
    expect(downloads.some((url) => url.endsWith("/default"))).toBe(false);

    const group = JSON.parse(
      entries.get(`group:${clients}`)?.content.toString("utf8") ?? "{}",
    ) as BackedUpGroup;
    expect(group).toMatchObject({ name: "Clients", groupType: "USER_CONTACT_GROUP", memberCount: 2 });
    expect([...(group.memberResourceNames ?? [])].sort()).toEqual([contacts[0], contacts[2]].sort());
    const saved = JSON.parse(
      entries.get(`other:${other.replace("otherContacts/", "")}`)?.content.toString() ?? "{}",
    );
    expect(saved).toMatchObject({ resourceName: other, emailAddresses: [{ value: "Sender@Mail.Example" }] });

    const search = entries.get(ids[0] as string)?.search as ContactSearchFields;
    expect(search).toEqual({
      kind: "contact",
      display: {
        name: "Dr. Zoë1 Ann Müller-Łukasz, Jr; 1 PhD",
        email: "Zoe1@Example.NET",
        groups: ["Clients", "Starred"],
      },
      entry: "contact",
      name: "dr. zoë1 ann müller-łukasz, jr; 1 phd",
      emails: ["zoe1@example.net", "zoe1.home@example.org"],
      phones: ["+41 44 000 0001", "(044) 123-0001", "41440000001", "0441230001"],
      groups: ["clients", "starred"],
      keywords: expect.arrayContaining([
        "zoë1",
        "müller",
        "zo1",
        "zoe1",
        "example",
        "net",
        "engineer",
        "clients",
      ]) as string[],
    });
    expect((entries.get(`group:${clients}`)?.search as ContactSearchFields).name).toBe("clients");
  }),
);

test(
  "when contacts are added, changed and deleted and a group is removed after a full backup, then the incremental listing reports exactly those once the propagation delay has passed",
  driven(async () => {
    const { user, clients, contacts } = await addressBook("delta");
    const caller = testCaller(clock);
    const full = await backUp(contactsSource(harness, user, caller));
    const people = peopleClient(harness, user);
    const vip = await addGroup(harness, user, "VIP");
    const [added] = await addContacts(harness, user, [{ person: richPerson(9, ["myContacts", vip]) }]);
    await people.people.updateContactPhoto({
      resourceName: contacts[2] as string,
      requestBody: { photoBytes: PNG.toString("base64") },
    });
    await people.people.deleteContact({ resourceName: contacts[1] as string });
    const book = harness.emulator.people.book(userIdOf(user));
    // The emulator has no contactGroups.delete: the group is removed as Google would.
    const removed = book.groups.get(clients);
    if (removed) Object.assign(removed, { deleted: true, updatedAt: clock.now() });

    await clock.advance(4 * MINUTE);
    const early = await backUp(contactsSource(harness, user, caller), full.cursor);
    expect(early.deletes).toEqual([`group:${clients}`]);
    expect([...early.entries.keys()]).toEqual([`group:${vip}`]);

    await clock.advance(2 * MINUTE);
    const late = await backUp(contactsSource(harness, user, caller), early.cursor);
    expect(late.batches.some((batch) => batch.fullListing || batch.resynced)).toBe(false);
    expect(late.batches[late.batches.length - 1]?.done).toBe(true);
    const key = (name: string | undefined) => `contact:${(name ?? "").replace("people/", "")}`;
    expect(late.deletes).toEqual([key(contacts[1])]);
    const changed = [...late.entries.keys()].filter((item) => item.startsWith("contact:")).sort();
    expect(changed).toEqual([key(contacts[2]), key(added)].sort());
    const photo = JSON.parse(
      late.entries.get(key(contacts[2]))?.content.toString() ?? "{}",
    ) as BackedUpPerson;
    expect(photo.alpvaultPhoto?.data).toBe(PNG.toString("base64"));
    // The group's listing repeats every run; the engine skips a group whose etag it has.
    const upserts = late.batches.flatMap((batch) =>
      batch.changes.filter((change) => change.type === "upsert"),
    );
    const vipRef = upserts.find(
      (change) => change.type === "upsert" && change.item.itemKey === `group:${vip}`,
    );
    expect(vipRef?.type === "upsert" && vipRef.item.versionKey).toBe(
      early.entries.get(`group:${vip}`)?.versionKey,
    );

    const quiet = await backUp(contactsSource(harness, user, caller), late.cursor);
    expect(quiet.deletes).toEqual([]);
    expect(keysOf(quiet.batches)).toEqual([`group:${vip}`]);
  }),
);

test(
  "when a full listing stops after a page, then a run from that batch's cursor goes on from the next page and ends with the incremental cursor",
  driven(async () => {
    const { user, contacts } = await addressBook("resume");
    const caller = testCaller(clock);
    const whole = await collect(contactsSource(harness, user, caller, { pageSize: 1 }).listChanges(null));
    // Groups, three connection pages, one other-contacts page.
    expect(whole).toHaveLength(5);
    const cut = whole[2]?.nextCursor ?? "";
    expect(JSON.parse(cut)).toMatchObject({
      full: true,
      at: { list: "connections", position: { mode: "full" } },
    });

    const resumed = await collect(contactsSource(harness, user, caller, { pageSize: 1 }).listChanges(cut));
    expect(resumed.some((batch) => batch.fullListing || batch.resynced)).toBe(false);
    expect(keysOf(resumed)).toEqual(keysOf(whole.slice(3)));
    expect(keysOf(whole.slice(0, 3)).concat(keysOf(resumed))).toContain(
      `contact:${(contacts[2] ?? "").slice(7)}`,
    );
    const next = resumed[resumed.length - 1];
    expect(next?.done).toBe(true);
    await clock.advance(PROPAGATED);
    const after = await collect(contactsSource(harness, user, caller).listChanges(next?.nextCursor ?? null));
    expect(after.some((batch) => batch.fullListing)).toBe(false);
  }),
);

test(
  "when the sync tokens are more than 7 days old, or the cursor is unreadable, then the run lists everything again with its first batch resynced and does not fail",
  driven(async () => {
    const { user } = await addressBook("expired");
    const caller = testCaller(clock);
    const full = await backUp(contactsSource(harness, user, caller));
    await clock.advance(7 * DAY + MINUTE);

    const again = await backUp(contactsSource(harness, user, caller), full.cursor);
    // The groups' incremental batch comes first; the expired connections token starts the full listing.
    const start = again.batches.findIndex((batch) => batch.fullListing);
    expect(start).toBe(1);
    expect(again.batches[start]).toMatchObject({ fullListing: true, resynced: true });
    expect(again.batches.filter((batch) => batch.resynced)).toHaveLength(1);
    expect([...new Set(keysOf(again.batches.slice(start)))].sort()).toEqual([...full.entries.keys()].sort());
    expect(again.batches[again.batches.length - 1]?.done).toBe(true);
    await clock.advance(PROPAGATED);
    const quiet = await backUp(contactsSource(harness, user, caller), again.cursor);
    expect(quiet.batches.some((batch) => batch.resynced)).toBe(false);

    const unreadable = await collect(contactsSource(harness, user, caller).listChanges('{"gmail":"full"}'));
    expect(unreadable[0]).toMatchObject({ fullListing: true, resynced: true });
  }),
);

test(
  "when the user's full syncs used up People's fixed first-page quota, then the quota-aware caller retries the 429 and the full listing completes",
  driven(async () => {
    const { user } = await addressBook("first-page");
    const original = harness.emulator.people.settings.fullSyncFirstPagesPerMinute;
    // Two first pages a minute: the user's own two full syncs use them up, a new one comes every 30 s.
    await harness.admin("PATCH", "/people/settings", { fullSyncFirstPagesPerMinute: 2 });
    try {
      const people = peopleClient(harness, user);
      for (let sync = 0; sync < 2; sync += 1) {
        await people.people.connections.list({
          resourceName: "people/me",
          personFields: "names",
          requestSyncToken: true,
        });
      }
      const caller = quotaAwareCaller({ clock, retry: { baseDelayMs: 1_000 }, random: () => 0.5 });
      const { entries, batches } = await backUp(contactsSource(harness, user, caller));
      expect(batches[batches.length - 1]?.done).toBe(true);
      expect(entries.size).toBe(5);
      const stats = caller.stats().methods;
      expect(stats["people.people.connections.list"]?.retries).toBeGreaterThan(0);
      expect(stats["people.otherContacts.list"]?.retries).toBeGreaterThan(0);
      expect(caller.stats().total.failures).toBe(0);
    } finally {
      await harness.admin("PATCH", "/people/settings", { fullSyncFirstPagesPerMinute: original });
    }
  }),
);

test(
  "when a user keeps nearly Google's 25,000 contacts, then every one is listed once, a thousand a page",
  driven(async () => {
    const user = await newUser(harness, "limit");
    const added = addAwkwardPeople(harness.emulator.people, userIdOf(user), {
      withPhotos: 2,
      nearLimitBy: 7,
    });
    expect(added.contacts).toBe(25_000 - 7);
    await clock.advance(PROPAGATED);
    const caller = quotaAwareCaller({ clock });
    const batches = await collect(contactsSource(harness, user, caller).listChanges(null));
    const contacts = keysOf(batches).filter((key) => key.startsWith("contact:"));
    expect(contacts).toHaveLength(25_000 - 7);
    expect(new Set(contacts).size).toBe(contacts.length);
    expect(caller.stats().methods["people.people.connections.list"]?.calls).toBe(25);
  }),
);

test(
  "when an item is fetched without the listing's hint, then contacts come from people.get, other contacts from their list, and gone ones or failed photo downloads are said as such",
  driven(async () => {
    const { user, clients, contacts, other } = await addressBook("fetch");
    const caller = testCaller(clock);
    const source = contactsSource(harness, user, caller);
    const contact = await source.fetch({ itemKey: `contact:${(contacts[0] ?? "").slice(7)}` });
    expect(JSON.parse((await bytesOf(contact.content)).toString()).resourceName).toBe(contacts[0]);
    const saved = await source.fetch({ itemKey: `other:${other.replace("otherContacts/", "")}` });
    expect(saved.metadata).toEqual({ contactEntry: "other-contact", resourceName: other });
    await peopleClient(harness, user).people.deleteContact({ resourceName: contacts[2] as string });
    await expect(source.fetch({ itemKey: `contact:${(contacts[2] ?? "").slice(7)}` })).rejects.toBeInstanceOf(
      ItemGoneError,
    );
    await expect(source.fetch({ itemKey: "other:c1" })).rejects.toBeInstanceOf(ItemGoneError);
    await expect(source.fetch({ itemKey: "group:0000" })).rejects.toBeInstanceOf(ItemGoneError);
    expect((await source.fetch({ itemKey: `group:${clients}` })).metadata.contactEntry).toBe("group");

    const broken = contactsSource(harness, user, caller, {
      fetchPhoto: () => Promise.reject(new Error("connection reset")),
    });
    const failed = broken.fetch({ itemKey: `contact:${(contacts[0] ?? "").slice(7)}` });
    await expect(failed).rejects.toBeInstanceOf(ItemNotReadError);
    await expect(failed).rejects.toMatchObject({ reason: "photo-not-downloaded" });
  }),
);
