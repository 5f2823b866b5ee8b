import type { people_v1 } from "@googleapis/people";
import { ManualClock } from "../../../kit/src/index";
import { SCOPES } from "../auth";
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { fullContact } from "./awkward";
import { grantPeopleScopes, peopleClient } from "./testing";

const MINUTE = 60_000;
let harness: Harness;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock();
  // Sync behaviour does not depend on answer times: the latency model is off for this file's emulator.
  harness = await startHarness({ clock, latency: { enabled: false } });
  await grantPeopleScopes(harness);
  // This file tests sync, not the fixed quota of a full sync's first page (see people-limits.test.ts).
  await harness.admin("PATCH", "/people/settings", { fullSyncFirstPagesPerMinute: 1000 });
});
afterAll(() => harness.stop());

const userId = (): string => harness.emulator.directory.user(TEST_USER)?.id ?? "";
const people = () => peopleClient(harness, TEST_USER);
const create = async (count: number, from = 0): Promise<string[]> => {
  const { data } = await people().people.batchCreateContacts({
    requestBody: {
      readMask: "names",
      contacts: Array.from({ length: count }, (_, index) => ({
        contactPerson: fullContact(from + index).fields as people_v1.Schema$Person,
      })),
    },
  });
  return (data.createdPeople ?? []).map((created) => created.person?.resourceName ?? "");
};
const list = (params: Record<string, unknown>) =>
  people().people.connections.list({ resourceName: "people/me", personFields: "metadata,names", ...params });

describe("connections sync", () => {
  beforeEach(() => harness.emulator.people.dropUser(userId()));

  test("when contacts change after a full sync, then the incremental sync returns only the changes, the deleted contact with metadata.deleted", async () => {
    const names = await create(3);
    await clock.advance(6 * MINUTE);
    const first = await list({ requestSyncToken: true, pageSize: 2 });
    expect(first.data.connections).toHaveLength(2);
    expect(first.data.nextSyncToken).toBeUndefined();
    const second = await list({ requestSyncToken: true, pageSize: 2, pageToken: first.data.nextPageToken });
    expect(second.data.connections).toHaveLength(1);
    expect(second.data.totalPeople).toBe(3);
    const token = second.data.nextSyncToken ?? "";
    expect(token).not.toBe("");

    await people().people.deleteContact({ resourceName: names[0] });
    const [added] = await create(1, 10);
    await clock.advance(6 * MINUTE);
    const changes = await list({ syncToken: token });
    const byName = new Map((changes.data.connections ?? []).map((person) => [person.resourceName, person]));
    expect([...byName.keys()].sort()).toEqual([names[0], added].sort());
    expect(byName.get(names[0])?.metadata?.deleted).toBe(true);
    expect(byName.get(names[0])?.names).toBeUndefined();
    expect(byName.get(added)?.names?.[0]?.givenName).toBe("Given10");
    expect(byName.get(added)?.metadata?.sources?.[0]).toMatchObject({ type: "CONTACT" });
    const again = await list({ syncToken: changes.data.nextSyncToken });
    expect(again.data.connections).toBeUndefined();
  });

  test("when a contact was just created, then a sync shows it only once the propagation delay has passed on the emulator's clock", async () => {
    const token = (await list({ requestSyncToken: true })).data.nextSyncToken ?? "";
    const [name] = await create(1);
    const plain = await list({});
    expect(plain.data.connections?.map((person) => person.resourceName)).toEqual([name]);
    await clock.advance(4 * MINUTE);
    const early = await list({ syncToken: token });
    expect(early.data.connections).toBeUndefined();
    await clock.advance(2 * MINUTE);
    const late = await list({ syncToken: early.data.nextSyncToken });
    expect(late.data.connections?.map((person) => person.resourceName)).toEqual([name]);
  });

  test("when a sync token is more than 7 days old, or expired through the admin API, then Google's 400 FAILED_PRECONDITION EXPIRED_SYNC_TOKEN", async () => {
    const old = (await list({ requestSyncToken: true })).data.nextSyncToken ?? "";
    await clock.advance(7 * 24 * 60 * MINUTE + 1);
    const expired = await googleError(list({ syncToken: old }));
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({
      error: {
        code: 400,
        message: "Sync token is expired. Clear local cache and retry call without the sync token.",
        status: "FAILED_PRECONDITION",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "EXPIRED_SYNC_TOKEN",
            domain: "people.googleapis.com",
          },
        ],
      },
    });
    const fresh = (await list({ requestSyncToken: true })).data.nextSyncToken ?? "";
    await expect(list({ syncToken: fresh })).resolves.toBeDefined();
    expect((await harness.admin("POST", `/users/${TEST_USER}/people/syncTokens:expire`)).status).toBe(200);
    expect((await googleError(list({ syncToken: fresh }))).body).toMatchObject({
      error: { status: "FAILED_PRECONDITION" },
    });
  });

  test("when a sync token is used with other personFields, then it is refused as 400 INVALID_ARGUMENT", async () => {
    const token = (await list({ requestSyncToken: true })).data.nextSyncToken ?? "";
    const refused = await googleError(list({ syncToken: token, personFields: "names" }));
    expect(refused.body).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  });
});

test("when a group is created and a contact added to it, then contactGroups.list's sync token returns that group, and other contacts keep their own tokens", async () => {
  harness.emulator.people.dropUser(userId());
  const client = people();
  const full = await client.contactGroups.list({});
  expect(full.data.contactGroups?.map((group) => group.name)).toContain("myContacts");
  const [name] = await create(1);
  const { data: group } = await client.contactGroups.create({
    requestBody: { contactGroup: { name: "Clients" } },
  });
  expect(group).toMatchObject({ name: "Clients", groupType: "USER_CONTACT_GROUP" });
  await client.contactGroups.members
    .modify({
      resourceName: group.resourceName ?? "",
      requestBody: { resourceNamesToAdd: [name ?? "", "people/c1"] },
    })
    .then(({ data }) => expect(data.notFoundResourceNames).toEqual(["people/c1"]));
  await clock.advance(6 * MINUTE);
  const changes = await client.contactGroups.list({ syncToken: full.data.nextSyncToken ?? "" });
  const changed = changes.data.contactGroups?.map((item) => item.resourceName);
  expect(changed).toContain(group.resourceName);
  expect(changed).not.toContain("contactGroups/friends");
  const got = await client.contactGroups.get({ resourceName: group.resourceName ?? "", maxMembers: 10 });
  expect(got.data).toMatchObject({ memberCount: 1, memberResourceNames: [name] });

  const other = peopleClient(harness, TEST_USER, [SCOPES.contactsOtherReadonly]);
  await harness.admin("POST", `/users/${TEST_USER}/people/contacts`, {
    contacts: [{ person: { emailAddresses: [{ value: "someone@example.net" }] }, other: true }],
  });
  const others = await other.otherContacts.list({ readMask: "emailAddresses" });
  expect(others.data.otherContacts?.[0]?.resourceName).toMatch(/^otherContacts\/c\d+$/);
  const connectionsToken = (await list({ requestSyncToken: true })).data.nextSyncToken ?? "";
  const mixed = await googleError(
    other.otherContacts.list({ readMask: "emailAddresses", syncToken: connectionsToken }),
  );
  expect(mixed.status).toBe(400);
});
