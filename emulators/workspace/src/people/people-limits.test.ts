import type { people_v1 } from "@googleapis/people";
import { ManualClock } from "../../../kit/src/index";
import { SCOPES } from "../auth";
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { TINY_PNG, fullContact } from "./awkward";
import { grantPeopleScopes, peopleClient } from "./testing";

let harness: Harness;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock();
  // Limits and errors do not depend on answer times: the latency model is off for this file's emulator.
  harness = await startHarness({ clock, latency: { enabled: false } });
  await grantPeopleScopes(harness);
});
afterAll(() => harness.stop());

const userId = (): string => harness.emulator.directory.user(TEST_USER)?.id ?? "";
const people = (scopes?: string[]) => peopleClient(harness, TEST_USER, scopes);
const contacts = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    contactPerson: fullContact(index).fields as people_v1.Schema$Person,
  }));
beforeEach(async () => {
  harness.emulator.people.dropUser(userId());
  harness.emulator.quota.reset();
  await clock.advance(60_000);
});

test("when batchCreateContacts gets 201 contacts or no readMask, then Google's 400 INVALID_ARGUMENT; 200 are created with every field", async () => {
  const client = people();
  const tooMany = await googleError(
    client.people.batchCreateContacts({ requestBody: { readMask: "names", contacts: contacts(201) } }),
  );
  expect(tooMany.status).toBe(400);
  expect(tooMany.body).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  expect(Object.keys((tooMany.body as { error: object }).error).sort()).toEqual([
    "code",
    "message",
    "status",
  ]);
  const noMask = await googleError(
    client.people.batchCreateContacts({ requestBody: { contacts: contacts(1) } }),
  );
  expect(noMask.message).toMatch(/^readMask mask is required/);
  const { data } = await client.people.batchCreateContacts({
    requestBody: {
      readMask:
        "names,emailAddresses,phoneNumbers,addresses,organizations,birthdays,biographies,userDefined,memberships,metadata",
      contacts: contacts(200),
    },
  });
  expect(data.createdPeople).toHaveLength(200);
  const person = data.createdPeople?.[3]?.person;
  expect(person?.etag).toMatch(/^%/);
  expect(person?.biographies?.[0]?.value).toBe("Notes about contact 3.\nSecond line.");
  expect(person?.userDefined?.[0]).toMatchObject({ key: "customer-id", value: "C-3" });
  expect(person?.memberships?.[0]?.contactGroupMembership?.contactGroupResourceName).toBe(
    "contactGroups/myContacts",
  );
  expect(harness.emulator.people.liveContacts(userId())).toHaveLength(200);
});

test("when connections.list has no personFields, then Google's 400 'personFields mask is required'", async () => {
  const missing = await googleError(people().people.connections.list({ resourceName: "people/me" }));
  expect(missing.body).toEqual({
    error: {
      code: 400,
      message:
        "personFields mask is required. Please specify one or more valid paths. Valid paths are documented at https://developers.google.com/people/api/rest/v1/people.connections/list.",
      status: "INVALID_ARGUMENT",
    },
  });
});

test("when a token lacks the method's scope, then Google's 403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT", async () => {
  const readonly = people([SCOPES.contactsReadonly]);
  await expect(
    readonly.people.connections.list({ resourceName: "people/me", personFields: "names" }),
  ).resolves.toBeDefined();
  const write = await googleError(
    readonly.people.createContact({ requestBody: { names: [{ givenName: "No" }] } }),
  );
  expect(write.status).toBe(403);
  expect(write.body).toMatchObject({
    error: {
      code: 403,
      message: "Request had insufficient authentication scopes.",
      status: "PERMISSION_DENIED",
      details: [
        { reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT", metadata: { service: "people.googleapis.com" } },
      ],
    },
  });
  const other = await googleError(people([SCOPES.contacts]).otherContacts.list({ readMask: "names" }));
  expect(other.status).toBe(403);
});

test("when a user starts more full syncs a minute than Google's fixed quota, then the first page is 429 RESOURCE_EXHAUSTED while next pages go on", async () => {
  const client = people([SCOPES.contactsReadonly]);
  harness.emulator.people.addContacts(userId(), [fullContact(1), fullContact(2)]);
  // A full sync shows writes once they have propagated (5 minutes).
  await clock.advance(6 * 60_000);
  const list = (pageToken?: string) =>
    client.people.connections.list(
      {
        resourceName: "people/me",
        personFields: "names",
        requestSyncToken: true,
        pageSize: 1,
        ...(pageToken ? { pageToken } : {}),
      },
      { retry: false },
    );
  let pageToken = "";
  for (let call = 0; call < 6; call += 1) pageToken = (await list()).data.nextPageToken ?? "";
  const refused = await googleError(list());
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } });
  await expect(list(pageToken)).resolves.toMatchObject({ status: 200 });
  await clock.advance(60_000);
  await expect(list()).resolves.toMatchObject({ status: 200 });
});

test("when a user reads more than 90 times a minute, then People's 429 quota message for the per-user read metric", async () => {
  const client = people();
  const [contact] = harness.emulator.people.addContacts(userId(), [fullContact(1)]);
  const get = () =>
    client.people.get(
      { resourceName: `people/c${contact?.id ?? ""}`, personFields: "names" },
      { retry: false },
    );
  for (let call = 0; call < 90; call += 1) await get();
  const refused = await googleError(get());
  expect(refused.status).toBe(429);
  expect(refused.message).toBe(
    "Quota exceeded for quota metric 'Critical read requests (Contact and Profile Reads)' and limit 'Critical read requests (Contact and Profile Reads) per minute per user' of service 'people.googleapis.com' for consumer 'project_number:104857600'.",
  );
});

test("when a user is at the contact limit, then createContact is refused and nothing is added", async () => {
  const original = harness.emulator.people.settings.contactLimit;
  await harness.admin("PATCH", "/people/settings", { contactLimit: 50 });
  try {
    const { status, body } = await harness.admin<{ contacts: number }>(
      "POST",
      `/users/${TEST_USER}/people:awkward`,
      { withPhotos: 2, nearLimitBy: 0 },
    );
    expect(status).toBe(200);
    expect(body.contacts).toBe(50);
    const refused = await googleError(
      people().people.createContact({ requestBody: { names: [{ givenName: "One more" }] } }),
    );
    expect(refused.body).toMatchObject({ error: { code: 400, status: "FAILED_PRECONDITION" } });
    expect(harness.emulator.people.liveContacts(userId())).toHaveLength(50);
  } finally {
    await harness.admin("PATCH", "/people/settings", { contactLimit: original });
  }
});

test("when a contact's photo is updated, then its url serves the bytes, and snapshot/restore keeps contacts, photos and groups", async () => {
  const client = people();
  const { data: created } = await client.people.createContact({
    personFields: "names",
    requestBody: { names: [{ givenName: "Photo" }] },
  });
  const resourceName = created.resourceName ?? "";
  const bad = await googleError(
    client.people.updateContactPhoto({
      resourceName,
      requestBody: { photoBytes: Buffer.from("not an image").toString("base64") },
    }),
  );
  expect(bad.status).toBe(400);
  const { data } = await client.people.updateContactPhoto({
    resourceName,
    requestBody: { photoBytes: TINY_PNG.toString("base64"), personFields: "photos" },
  });
  const url = data.person?.photos?.[0]?.url ?? "";
  expect(url.startsWith(harness.url)).toBe(true);
  expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(TINY_PNG)).toBe(true);
  const { data: group } = await client.contactGroups.create({
    requestBody: { contactGroup: { name: "Kept" } },
  });

  const saved = harness.emulator.snapshot();
  await client.people.deleteContact({ resourceName });
  harness.emulator.restore(saved);
  const after = people();
  const person = await after.people.get({ resourceName, personFields: "names,photos" });
  expect(person.data.names?.[0]?.givenName).toBe("Photo");
  expect(person.data.photos?.[0]?.url).toBe(url);
  const groups = await after.contactGroups.list({});
  expect(groups.data.contactGroups?.map((item) => item.resourceName)).toContain(group.resourceName);
});

test("when contacts are read one by one and in a batch, then unknown and deleted ones are Google's 404 NOT_FOUND", async () => {
  const client = people();
  const [kept, gone] = harness.emulator.people.addContacts(userId(), [fullContact(1), fullContact(2)]);
  await client.people.deleteContact({ resourceName: `people/c${gone?.id ?? ""}` });
  const missing = await googleError(
    client.people.get({ resourceName: `people/c${gone?.id ?? ""}`, personFields: "names" }),
  );
  expect(missing.body).toEqual({
    error: { code: 404, message: "Requested entity was not found.", status: "NOT_FOUND" },
  });
  const { data } = await client.people.getBatchGet({
    resourceNames: [`people/c${kept?.id ?? ""}`, `people/c${gone?.id ?? ""}`],
    personFields: "names,phoneNumbers",
  });
  expect(data.responses?.map((response) => response.httpStatusCode)).toEqual([200, 404]);
  expect(data.responses?.[0]?.person?.phoneNumbers?.[0]?.value).toBe("+41 44 000 0001");
  const unknownField = await googleError(
    client.people.createContact({ requestBody: { nickName: [{ value: "x" }] } as never }),
  );
  expect(unknownField.message).toMatch(/^Invalid JSON payload received. Unknown name "nickName"/);
});
