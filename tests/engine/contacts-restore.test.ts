/**
 * Restoring contacts with the production `ContactsRestorer` against the Workspace emulator in-process:
 * contacts backed up through the Contacts source are restored to their user and to another one, then
 * read back through the official People client and compared field by field with the backup (photos,
 * group memberships and the recovery's group included); more than 200 contacts go 200 a call, one call
 * at a time; a contact Google refuses is reported and the others are restored.
 */
import type { people_v1 } from "@googleapis/people";
import { type Harness, ManualClock, startHarness } from "../../emulators/workspace/src/index";
import type { BackedUpPerson } from "../../functions/src/engine/contacts/people";
import { ContactsRestorer, OTHER_CONTACT_NOTE } from "../../functions/src/engine/contacts/restorer";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import {
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
  type BackedUpEntry,
} from "../support/contacts";

jest.setTimeout(120_000);

let harness: Harness;
const clock = new ManualClock();

beforeAll(async () => {
  harness = await startHarness({ clock, latency: { enabled: false } });
  await grantPeopleScopes(harness);
});
afterAll(() => harness.stop());

const driven = (body: () => Promise<void>) => () => clock.run(body());

/** The fields a restore must bring back as they were (Google's item metadata aside). */
const KEPT = [
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
] as const;
const READ_FIELDS = `${KEPT.join(",")},memberships,photos,metadata`;
const withoutMetadata = (items: { metadata?: unknown }[] | undefined) =>
  items?.map(({ metadata: _metadata, ...item }) => item);

/** A caller that records the methods called and how many calls of the user were in flight at most. */
function recording(inner: GoogleCaller) {
  const methods: string[] = [];
  let inFlight = 0;
  let most = 0;
  const caller: GoogleCaller = {
    call: async (request, send) => {
      methods.push(request.method);
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await inner.call(request, send);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return { caller, methods, most: () => most };
}

/** A user whose contacts are backed up: three rich ones (two with photos), a group, an other contact. */
async function backedUpBook(prefix: string) {
  const user = await newUser(harness, prefix);
  const clients = await addGroup(harness, user, "Clients");
  await addContacts(harness, user, [
    { person: richPerson(1, ["myContacts", clients, "starred"]), photo: PNG },
    { person: richPerson(2, ["myContacts"]), photo: PNG },
    { person: richPerson(3, ["myContacts", clients]) },
    {
      person: { names: [{ displayName: "Saved From Mail" }], emailAddresses: [{ value: "s@mail.test" }] },
      other: true,
    },
  ]);
  await clock.advance(PROPAGATED);
  const { entries } = await backUp(contactsSource(harness, user, testCaller(clock)));
  return { user, entries: [...entries.values()] };
}

async function groupsByName(people: people_v1.People): Promise<Map<string, people_v1.Schema$ContactGroup>> {
  const { data } = await people.contactGroups.list({ pageSize: 1000 });
  return new Map((data.contactGroups ?? []).map((group) => [group.name ?? "", group]));
}

/** Reads each restored contact back and compares it with its backup. */
async function expectRestored(
  target: string,
  entries: BackedUpEntry[],
  outcomes: { from: string; resourceName?: string }[],
) {
  const people = peopleClient(harness, target);
  const groups = await groupsByName(people);
  const restoredGroup = groups.get("Restored 2026-12-01")?.resourceName;
  const clients = groups.get("Clients")?.resourceName;
  const backedUpClients = entries.find((entry) => entry.metadata.contactEntry === "group")?.metadata
    .resourceName;
  expect(restoredGroup).toBeDefined();
  expect(clients).toBeDefined();
  for (const entry of entries.filter((item) => item.metadata.contactEntry !== "group")) {
    const backedUp = JSON.parse(entry.content.toString("utf8")) as BackedUpPerson;
    const outcome = outcomes.find((item) => item.from === backedUp.resourceName);
    const { data: restored } = await people.people.get({
      resourceName: outcome?.resourceName ?? "",
      personFields: READ_FIELDS,
    });
    for (const field of KEPT) {
      expect([field, withoutMetadata(restored[field] ?? undefined)]).toEqual([
        field,
        withoutMetadata(backedUp[field] ?? undefined),
      ]);
    }
    const memberOf = (restored.memberships ?? []).map(
      (item) => item.contactGroupMembership?.contactGroupResourceName,
    );
    expect(memberOf).toContain(restoredGroup);
    const wasIn = (group: string | undefined) =>
      backedUp.memberships?.some((item) => item.contactGroupMembership?.contactGroupResourceName === group) ??
      false;
    expect(memberOf.includes(clients)).toBe(wasIn(backedUpClients));
    expect(memberOf.includes("contactGroups/starred")).toBe(wasIn("contactGroups/starred"));
    const photo = restored.photos?.find((item) => !item.default);
    if (backedUp.alpvaultPhoto) {
      expect(Buffer.from(await (await fetch(photo?.url ?? "")).arrayBuffer()).equals(PNG)).toBe(true);
    } else expect(photo).toBeUndefined();
  }
}

test(
  "when contacts are restored to another user and to their own, then each comes back with every field, its photo, its groups (created by name where missing), Starred and the recovery's group",
  driven(async () => {
    const { user, entries } = await backedUpBook("restore-from");
    const other = await newUser(harness, "restore-to");
    for (const target of [other, user]) {
      const record = recording(testCaller(clock));
      const restorer = new ContactsRestorer(peopleClient(harness, target), target, record.caller);
      const outcomes = await restorer.restore(entries, { user: target, group: "Restored 2026-12-01" });

      expect(outcomes.map((outcome) => [outcome.restored, outcome.reason, outcome.problems])).toEqual(
        entries.map(() => [true, undefined, []]),
      );
      const saved = outcomes[entries.findIndex((entry) => entry.metadata.contactEntry === "other-contact")];
      expect(saved?.note).toBe(OTHER_CONTACT_NOTE);
      expect(saved?.resourceName).toMatch(/^people\/c\d+$/);
      await expectRestored(target, entries, outcomes);
      expect(record.most()).toBe(1);
      expect(record.methods.filter((method) => method === "people.people.batchCreateContacts")).toHaveLength(
        1,
      );
      expect(record.methods.filter((method) => method === "people.people.updateContactPhoto")).toHaveLength(
        2,
      );
      const groups = [...(await groupsByName(peopleClient(harness, target))).keys()];
      // Found by name at its own user, created once at the other.
      expect(groups.filter((name) => name === "Clients")).toHaveLength(1);
      const group = outcomes[entries.findIndex((entry) => entry.metadata.contactEntry === "group")];
      expect(group?.resourceName).toBe(
        (await groupsByName(peopleClient(harness, target))).get("Clients")?.resourceName,
      );
    }
  }),
);

test(
  "when 250 contacts are restored, then they go in two batchCreateContacts calls of 200 and 50, one after the other, and all are in the recovery's group",
  driven(async () => {
    const user = await newUser(harness, "restore-many");
    await addContacts(
      harness,
      user,
      Array.from({ length: 250 }, (_, index) => ({ person: { names: [{ givenName: `Many${index}` }] } })),
    );
    await clock.advance(PROPAGATED);
    const { entries } = await backUp(contactsSource(harness, user, testCaller(clock)));
    const target = await newUser(harness, "restore-many-to");
    const people = peopleClient(harness, target);
    const sizes: number[] = [];
    const create = people.people.batchCreateContacts.bind(people.people) as (
      params: people_v1.Params$Resource$People$Batchcreatecontacts,
    ) => Promise<unknown>;
    Object.assign(people.people, {
      batchCreateContacts: (params: people_v1.Params$Resource$People$Batchcreatecontacts) => {
        sizes.push(params.requestBody?.contacts?.length ?? 0);
        return create(params);
      },
    });
    const record = recording(testCaller(clock));
    const outcomes = await new ContactsRestorer(people, target, record.caller).restore(
      [...entries.values()],
      {
        user: target,
        group: "Restored 2026-12-01",
      },
    );

    expect(sizes).toEqual([200, 50]);
    expect(record.most()).toBe(1);
    expect(outcomes.filter((outcome) => outcome.restored)).toHaveLength(250);
    const group = (await groupsByName(people)).get("Restored 2026-12-01");
    const { data } = await people.contactGroups.get({
      resourceName: group?.resourceName ?? "",
      maxMembers: 1000,
    });
    expect(data.memberCount).toBe(250);
    expect([...(data.memberResourceNames ?? [])].sort()).toEqual(
      outcomes.map((outcome) => outcome.resourceName).sort(),
    );
  }),
);

test(
  "when Google refuses one contact of a batch, then that contact is reported with Google's reason and the others are restored",
  driven(async () => {
    const { entries } = await backedUpBook("restore-refused");
    const contacts = entries.filter((entry) => entry.metadata.contactEntry === "contact");
    const first = JSON.parse(contacts[0]?.content.toString("utf8") ?? "{}") as BackedUpPerson;
    // A contact has at most one birthday (people.createContact): Google refuses one with two.
    const broken: BackedUpEntry = {
      ...(contacts[0] as BackedUpEntry),
      metadata: { contactEntry: "contact", resourceName: "people/c42" },
      content: Buffer.from(
        JSON.stringify({
          ...first,
          resourceName: "people/c42",
          birthdays: [...(first.birthdays ?? []), ...(first.birthdays ?? [])],
        }),
      ),
    };
    const set = [...contacts.slice(0, 2), broken, ...contacts.slice(2)];
    const target = await newUser(harness, "restore-refused-to");
    const outcomes = await new ContactsRestorer(
      peopleClient(harness, target),
      target,
      testCaller(clock),
    ).restore(set, {
      user: target,
    });

    expect(outcomes.map((outcome) => outcome.restored)).toEqual([true, true, false, true]);
    expect(outcomes[2]?.reason).toMatch(/^400 INVALID_ARGUMENT: .*birthdays/);
    const { data } = await peopleClient(harness, target).people.connections.list({
      resourceName: "people/me",
      personFields: "names",
    });
    expect(data.connections?.map((person) => person.resourceName).sort()).toEqual(
      outcomes
        .filter((outcome) => outcome.restored)
        .map((outcome) => outcome.resourceName)
        .sort(),
    );
  }),
);
