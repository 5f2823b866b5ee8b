import { ManualClock } from "../../../kit/src/index";
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { grantPeopleScopes, peopleClient } from "./testing";

let harness: Harness;
const clock = new ManualClock();
beforeAll(async () => {
  // Writes and their errors do not depend on answer times: the latency model is off for this file's emulator.
  harness = await startHarness({ clock, latency: { enabled: false } });
  await grantPeopleScopes(harness);
});
afterAll(() => harness.stop());

const userId = (): string => harness.emulator.directory.user(TEST_USER)?.id ?? "";
const people = () => peopleClient(harness, TEST_USER);
beforeEach(async () => {
  harness.emulator.people.dropUser(userId());
  harness.emulator.quota.reset();
  await clock.advance(60_000);
});

const ada = {
  names: [{ givenName: "Ada", familyName: "Lovelace", displayName: "Countess of Lovelace" }],
  emailAddresses: [{ value: "ada@example.net" }],
  phoneNumbers: [{ value: "+41 44 000 0001" }],
};
const createAda = async () =>
  (
    await people().people.createContact({
      personFields: "names,emailAddresses,phoneNumbers",
      requestBody: ada,
    })
  ).data;

describe("names", () => {
  test("when a contact is made with given and family names and its own displayName, then Google's displayName, displayNameLastFirst and unstructuredName are computed and the client's displayName is ignored", async () => {
    const created = await createAda();
    expect(created.names?.[0]).toMatchObject({
      givenName: "Ada",
      familyName: "Lovelace",
      displayName: "Ada Lovelace",
      displayNameLastFirst: "Lovelace, Ada",
      unstructuredName: "Ada Lovelace",
    });
    const { data } = await people().people.createContact({
      personFields: "names",
      requestBody: {
        names: [
          {
            honorificPrefix: "Dr.",
            givenName: "Grace",
            middleName: "Brewster",
            familyName: "Hopper",
            honorificSuffix: "PhD",
          },
        ],
      },
    });
    expect(data.names?.[0]).toMatchObject({
      displayName: "Dr. Grace Brewster Hopper PhD",
      displayNameLastFirst: "Hopper, Dr. Grace Brewster, PhD",
    });
  });

  test("when a name has only a displayName or only an unstructuredName, then the first is no name at all and the second is the display name", async () => {
    const { data: only } = await people().people.createContact({
      personFields: "names,emailAddresses",
      requestBody: {
        names: [{ displayName: "Just Shown" }],
        emailAddresses: [{ value: "shown@example.net" }],
      },
    });
    expect(only.names).toBeUndefined();
    const { data: free } = await people().people.createContact({
      personFields: "names",
      requestBody: { names: [{ unstructuredName: "Charles Babbage" }] },
    });
    expect(free.names?.[0]).toMatchObject({
      unstructuredName: "Charles Babbage",
      displayName: "Charles Babbage",
      displayNameLastFirst: "Charles Babbage",
    });
  });
});

describe("people.updateContact", () => {
  test("when a contact is updated with its etag, then the fields named are replaced (one left out cleared), the others kept, and the answer has the new etag", async () => {
    const created = await createAda();
    const { data: updated } = await people().people.updateContact({
      resourceName: created.resourceName ?? "",
      updatePersonFields: "emailAddresses,phoneNumbers",
      personFields: "names,emailAddresses,phoneNumbers",
      requestBody: {
        etag: created.etag,
        emailAddresses: [{ value: "countess@example.net" }],
        names: [{ givenName: "Not", familyName: "Named in the mask" }],
      },
    });
    expect(updated.emailAddresses?.map((email) => email.value)).toEqual(["countess@example.net"]);
    expect(updated.phoneNumbers).toBeUndefined();
    expect(updated.names?.[0]?.displayName).toBe("Ada Lovelace");
    expect(updated.etag).not.toBe(created.etag);
    // The next update goes with the etag the last one answered.
    const { data: again } = await people().people.updateContact({
      resourceName: created.resourceName ?? "",
      updatePersonFields: "names",
      requestBody: { etag: updated.etag, names: [{ givenName: "Augusta Ada", familyName: "King" }] },
    });
    expect(again.names?.[0]).toMatchObject({
      displayName: "Augusta Ada King",
      displayNameLastFirst: "King, Augusta Ada",
    });
    expect(again.emailAddresses?.[0]?.value).toBe("countess@example.net");
  });

  test("when the etag is stale, then Google's 400 FAILED_PRECONDITION; without one 400 INVALID_ARGUMENT; the contact source's etag serves too", async () => {
    const created = await createAda();
    const resourceName = created.resourceName ?? "";
    await people().people.updateContact({
      resourceName,
      updatePersonFields: "phoneNumbers",
      requestBody: { etag: created.etag, phoneNumbers: [{ value: "+41 44 000 0002" }] },
    });
    const stale = await googleError(
      people().people.updateContact({
        resourceName,
        updatePersonFields: "phoneNumbers",
        requestBody: { etag: created.etag, phoneNumbers: [] },
      }),
    );
    expect(stale.body).toEqual({
      error: {
        code: 400,
        message:
          "Request person.etag is different than the current person.etag. Clear local cache and get the latest person.",
        status: "FAILED_PRECONDITION",
      },
    });
    const missing = await googleError(
      people().people.updateContact({ resourceName, updatePersonFields: "phoneNumbers", requestBody: {} }),
    );
    expect(missing.body).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });

    const { data: current } = await people().people.get({
      resourceName,
      personFields: "metadata,phoneNumbers",
    });
    const { data: bySource } = await people().people.updateContact({
      resourceName,
      updatePersonFields: "phoneNumbers",
      requestBody: { metadata: current.metadata, phoneNumbers: [{ value: "+41 44 000 0003" }], photos: [] },
    });
    expect(bySource.phoneNumbers?.map((phone) => phone.value)).toEqual(["+41 44 000 0003"]);
    const staleSource = await googleError(
      people().people.updateContact({
        resourceName,
        updatePersonFields: "phoneNumbers",
        requestBody: { metadata: current.metadata, phoneNumbers: [] },
      }),
    );
    expect(staleSource.body).toMatchObject({ error: { code: 400, status: "FAILED_PRECONDITION" } });
  });

  test("when updatePersonFields is missing or names a read-only field, memberships would be left empty, a field is unknown or the contact is not one, then Google's 400 or 404", async () => {
    const created = await createAda();
    const resourceName = created.resourceName ?? "";
    const etag = created.etag;
    const refused = async (params: Record<string, unknown>) =>
      googleError(people().people.updateContact({ resourceName, ...params }));
    const noMask = await refused({ requestBody: { etag } });
    expect(noMask.message).toMatch(/^updatePersonFields mask is required/);
    expect((await refused({ updatePersonFields: "photos", requestBody: { etag } })).message).toMatch(
      /^Invalid updatePersonFields mask path: "photos"/,
    );
    const emptyGroups = await refused({
      updatePersonFields: "memberships",
      requestBody: { etag, memberships: [] },
    });
    expect(emptyGroups.body).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    const unknown = await refused({ updatePersonFields: "names", requestBody: { etag, nickname: "Ada" } });
    expect(unknown.message).toMatch(/^Invalid JSON payload received\. Unknown name "nickname"/);
    const twoNames = await refused({
      updatePersonFields: "names",
      requestBody: { etag, names: [{ givenName: "A" }, { givenName: "B" }] },
    });
    expect(twoNames.status).toBe(400);
    const gone = await googleError(
      people().people.updateContact({
        resourceName: "people/c123",
        updatePersonFields: "names",
        requestBody: { etag, names: [] },
      }),
    );
    expect(gone.body).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    // Nothing of the refused updates was written.
    const { data } = await people().people.get({ resourceName, personFields: "names,memberships" });
    expect(data.etag).toBe(etag);
  });

  test("when memberships are updated, then the contact joins and leaves groups and the groups' member counts follow", async () => {
    const created = await createAda();
    const { data: group } = await people().contactGroups.create({
      requestBody: { contactGroup: { name: "Rechner" } },
    });
    await people().people.updateContact({
      resourceName: created.resourceName ?? "",
      updatePersonFields: "memberships",
      requestBody: {
        etag: created.etag,
        memberships: [{ contactGroupMembership: { contactGroupResourceName: group.resourceName } }],
      },
    });
    const { data } = await people().contactGroups.get({
      resourceName: group.resourceName ?? "",
      maxMembers: 10,
    });
    expect(data.memberResourceNames).toEqual([created.resourceName]);
    const { data: myContacts } = await people().contactGroups.get({
      resourceName: "contactGroups/myContacts",
    });
    expect(myContacts.memberCount).toBeUndefined();
  });
});

describe("contactGroups.update and contactGroups.delete", () => {
  test("when a group is renamed with its etag, then the name changes; a stale or missing etag is 400, a taken name 409, a system group 400", async () => {
    const client = people();
    const { data: group } = await client.contactGroups.create({
      requestBody: { contactGroup: { name: "Kunden" } },
    });
    await client.contactGroups.create({ requestBody: { contactGroup: { name: "Lieferanten" } } });
    const resourceName = group.resourceName ?? "";
    const { data: renamed } = await client.contactGroups.update({
      resourceName,
      requestBody: { contactGroup: { etag: group.etag, name: "Kundschaft" } },
    });
    expect(renamed).toMatchObject({ resourceName, name: "Kundschaft", groupType: "USER_CONTACT_GROUP" });
    expect(renamed.etag).not.toBe(group.etag);

    const update = (contactGroup: Record<string, unknown>, name = resourceName) =>
      googleError(client.contactGroups.update({ resourceName: name, requestBody: { contactGroup } }));
    const stale = await update({ etag: group.etag, name: "Wieder anders" });
    expect(stale.body).toMatchObject({ error: { code: 400, status: "FAILED_PRECONDITION" } });
    expect(stale.message).toMatch(/is different than the current contact_group\.etag/);
    expect((await update({ name: "Ohne etag" })).body).toMatchObject({
      error: { code: 400, status: "INVALID_ARGUMENT" },
    });
    expect((await update({ etag: renamed.etag, name: "Lieferanten" })).body).toMatchObject({
      error: { code: 409, status: "ALREADY_EXISTS" },
    });
    const { data: starred } = await client.contactGroups.get({ resourceName: "contactGroups/starred" });
    expect((await update({ etag: starred.etag, name: "Wichtig" }, "contactGroups/starred")).status).toBe(400);
    expect((await update({ etag: renamed.etag, name: "x" }, "contactGroups/abc123")).status).toBe(404);
  });

  test("when updateGroupFields names clientData, then only the client data is replaced", async () => {
    const client = people();
    const { data: group } = await client.contactGroups.create({
      requestBody: { contactGroup: { name: "Projekt", clientData: [{ key: "k", value: "1" }] } },
    });
    const { data } = await client.contactGroups.update({
      resourceName: group.resourceName ?? "",
      requestBody: {
        contactGroup: { etag: group.etag, name: "ignored", clientData: [{ key: "k", value: "2" }] },
        updateGroupFields: "clientData",
        readGroupFields: "clientData,name",
      },
    });
    expect(data).toMatchObject({ name: "Projekt", clientData: [{ key: "k", value: "2" }] });
    const bad = await googleError(
      client.contactGroups.update({
        resourceName: group.resourceName ?? "",
        requestBody: { contactGroup: { etag: data.etag }, updateGroupFields: "memberCount" },
      }),
    );
    expect(bad.status).toBe(400);
  });

  test("when a group is deleted, then its contacts stay without it, or with deleteContacts go too, and a group sync reports it deleted", async () => {
    const client = people();
    const { data: start } = await client.contactGroups.list({ pageSize: 1000 });
    const groupOf = async (name: string) => {
      const { data: group } = await client.contactGroups.create({ requestBody: { contactGroup: { name } } });
      const created = await createAda();
      await client.contactGroups.members.modify({
        resourceName: group.resourceName ?? "",
        requestBody: { resourceNamesToAdd: [created.resourceName ?? ""] },
      });
      return { group: group.resourceName ?? "", contact: created.resourceName ?? "" };
    };
    const kept = await groupOf("Behalten");
    const dropped = await groupOf("Weg");
    await client.contactGroups.delete({ resourceName: kept.group });
    await client.contactGroups.delete({ resourceName: dropped.group, deleteContacts: true });

    const { data: keptContact } = await client.people.get({
      resourceName: kept.contact,
      personFields: "memberships",
    });
    expect(keptContact.memberships?.map((m) => m.contactGroupMembership?.contactGroupResourceName)).toEqual([
      "contactGroups/myContacts",
    ]);
    expect(
      (await googleError(client.people.get({ resourceName: dropped.contact, personFields: "names" }))).status,
    ).toBe(404);
    expect((await googleError(client.contactGroups.get({ resourceName: kept.group }))).status).toBe(404);
    expect((await googleError(client.contactGroups.delete({ resourceName: kept.group }))).status).toBe(404);
    expect(
      (await googleError(client.contactGroups.delete({ resourceName: "contactGroups/myContacts" }))).status,
    ).toBe(400);

    await clock.advance(6 * 60_000);
    const { data: changes } = await client.contactGroups.list({ syncToken: start.nextSyncToken ?? "" });
    const deleted = (changes.contactGroups ?? []).filter((group) => group.metadata?.deleted);
    expect(deleted.map((group) => group.resourceName).sort()).toEqual([kept.group, dropped.group].sort());
  });
});
