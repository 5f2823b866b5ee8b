/**
 * Recovering contacts through the API, end to end on the stack: a user's backed-up address book (a
 * contact in a group of theirs, another one) loses a contact at Google. A recovery to the original place
 * creates the lost contact again, back in its group, and skips the one still there; a recovery into a
 * separate folder creates every contact into a group of the folder's name; a delivery that stopped after
 * Google created a contact finds it by the recovery's tag instead of creating it twice. Their export is
 * one vCard 4.0 file that a parser nobody here wrote (Mozilla's ical.js) reads back.
 */
import { randomBytes } from "node:crypto";
import { RECOVERY_ITEM_REASONS, type Recovery } from "@alpvault/contracts/recovery";
import { BROWSE_MESSAGES, type BrowseResponse } from "@alpvault/contracts/browse";
import type { ExportJob } from "@alpvault/contracts/exports";
import type { SearchResponse } from "@alpvault/contracts/search";
import type { people_v1 } from "@googleapis/people";
import ICAL from "ical.js";
import { SCOPES } from "../../emulators/workspace/src/index";
import {
  RESTORE_TAG_KEY,
  restoreTagValue,
  type RestoreTag,
} from "../../functions/src/engine/contacts/restore-lookups";
import {
  backdateCatalog,
  backedUpWithPolicy,
  backupNow,
  finishedRun,
  itemsOf,
  type StoredRun,
} from "../support/backup-runs";
import { exportsOf } from "../support/exports";
import { onboarded, setAccount } from "../support/organizations";
import { recoveriesOf, resumeDeadRecovery } from "../support/recoveries";
import { peopleFor, workspaceAdmin } from "../support/workspace";
import { termsBody } from "../support/requests";

jest.setTimeout(180_000);

let setup: Awaited<ReturnType<typeof onboarded>>;
let resourceId: string;
let people: people_v1.People;
let team: string;
let vreni: string;
let hans: string;
let otto: string;

const recover = (body: Record<string, unknown>) => recoveriesOf(setup.call, setup.organization).start(body);
const finished = (recoveryId: string) => recoveriesOf(setup.call, setup.organization).finished(recoveryId);

/**
 * The user's contacts by family name: resource name and groups of each, read through the emulator's
 * admin API (a test's own reads would spend the user's first-page quota of full listings).
 */
async function contactsNamed(familyName: string) {
  const answer = await workspaceAdmin("GET", `/users/${setup.workspace.user}/people/contacts`);
  expect(answer.status).toBe(200);
  return (answer.body as { contacts: people_v1.Schema$Person[] }).contacts
    .filter((person) => person.names?.[0]?.familyName === familyName)
    .map((person) => ({
      resourceName: person.resourceName ?? "",
      groups: (person.memberships ?? []).map(
        (membership) => membership.contactGroupMembership?.contactGroupResourceName,
      ),
    }));
}

async function groupNamed(name: string): Promise<people_v1.Schema$ContactGroup | undefined> {
  const { data } = await people.contactGroups.list({ pageSize: 1000 });
  return (data.contactGroups ?? []).find((group) => group.name === name);
}

async function report(recoveryId: string): Promise<string> {
  const answer = await setup.call(
    `/organizations/${setup.organization.organizationId}/recoveries/${recoveryId}/report`,
  );
  expect(answer.status).toBe(200);
  return answer.bytes.toString("utf8");
}

beforeAll(async () => {
  setup = await onboarded();
  const { organization, workspace } = setup;
  await setAccount(organization, { planId: "zurich", seats: 5 });
  people = peopleFor(workspace.user, [SCOPES.contacts]);
  const marker = organization.organizationId;
  vreni = `Vreni${marker}`;
  hans = `Hans${marker}`;
  otto = `Otto${marker}`;
  team = (await people.contactGroups.create({ requestBody: { contactGroup: { name: "Team" } } })).data
    .resourceName!;
  // Made ten minutes ago, as an address book is: Google's sync requests see a write only after minutes.
  const seeded = await workspaceAdmin("POST", `/users/${workspace.user}/people/contacts`, {
    contacts: [
      {
        person: {
          names: [{ givenName: "Vreni", familyName: vreni }],
          emailAddresses: [{ value: "vreni@example.ch" }],
          memberships: [{ contactGroupMembership: { contactGroupResourceName: team } }],
        },
      },
      { person: { names: [{ givenName: "Hans", familyName: hans }] } },
      // Saved by Gmail from mail: an other contact, which a restore creates as a contact.
      {
        person: {
          names: [{ givenName: "Otto", familyName: otto }],
          emailAddresses: [{ value: "otto@example.ch" }],
        },
        other: true,
      },
    ],
    ageMinutes: 10,
  });
  expect(seeded.status).toBe(200);

  let run: StoredRun;
  ({ resourceId, run } = await backedUpWithPolicy(setup, "Contacts", ["contacts"]));
  expect(run.services).toMatchObject({ contacts: { state: "succeeded" } });

  // Lost at Google: Vreni.
  const [lost] = await contactsNamed(vreni);
  await people.people.deleteContact({ resourceName: lost!.resourceName });
  expect(await contactsNamed(vreni)).toEqual([]);
});

describe("a user's contacts recovered", () => {
  test("when they are recovered to the original place, then the lost contact is created again in its group, and the contact and the other contact still there are skipped", async () => {
    const started = await recover({
      resourceId,
      service: "contacts",
      location: "original",
      method: "overwrite",
    });
    expect(started.status).toBe(202);
    const recovery = await finished((started.body as Recovery).recoveryId);
    expect(recovery).toMatchObject({ state: "succeeded", progress: { failed: 0, skipped: 2 } });
    expect(await contactsNamed(vreni)).toEqual([
      {
        resourceName: expect.stringMatching(/^people\//) as string,
        groups: expect.arrayContaining([team]) as string[],
      },
    ]);
    expect(await contactsNamed(hans)).toHaveLength(1);
    // The other contact is not created as a contact while the user still has it.
    expect(await contactsNamed(otto)).toEqual([]);
    const lines = (await report(recovery.recoveryId)).split("\r\n");
    expect(lines.filter((line) => line.includes(RECOVERY_ITEM_REASONS.alreadyThere))).toHaveLength(2);
  });

  test("when they are recovered into a separate folder, then every contact is created into a group of the folder's name", async () => {
    const folderName = `Restored_${Date.now()}`;
    const started = await recover({
      resourceId,
      service: "contacts",
      location: "original",
      method: "folder",
      folderName,
    });
    expect(started.status).toBe(202);
    expect(await finished((started.body as Recovery).recoveryId)).toMatchObject({
      state: "succeeded",
      progress: { failed: 0, skipped: 0 },
    });
    const group = await groupNamed(folderName);
    // Vreni, Hans and the other contact, each a contact of the group.
    expect(group?.memberCount).toBe(3);
    expect(await contactsNamed(hans)).toHaveLength(2);
  });

  /** Hans's backed-up resource name and catalog item. */
  async function hansEntry() {
    const items = await itemsOf(setup.organization, resourceId);
    const item = items.find(
      (candidate) =>
        candidate.kind === "contacts-entry" &&
        JSON.stringify(candidate).toLowerCase().includes(hans.toLowerCase()),
    )!;
    return { itemId: item.itemKey, from: `people/${item.itemKey.replace(/^contact:/, "")}` };
  }

  /**
   * A recovery of Hans into a group whose delivery stopped after Google created a contact carrying
   * `tagValue` (given the recovery's id and secret), resumed: answers how many Hans there were before and
   * after.
   */
  async function resumedAfter(tagValue: (tag: RestoreTag) => string) {
    const { itemId } = await hansEntry();
    const recoveryId = `resumed${Date.now()}`;
    const secret = randomBytes(32);
    await people.people.createContact({
      requestBody: {
        names: [{ givenName: "Hans", familyName: hans }],
        clientData: [{ key: RESTORE_TAG_KEY, value: tagValue({ id: recoveryId, secret }) }],
      },
    });
    const before = (await contactsNamed(hans)).length;
    await resumeDeadRecovery(setup.organization, {
      recoveryId,
      service: "contacts",
      resourceId,
      folderName: "Resumed",
      itemId,
      requestedBy: setup.workspace.user,
      tagSecret: secret.toString("base64url"),
    });
    expect(await finished(recoveryId)).toMatchObject({
      state: "succeeded",
      progress: { restored: 1, failed: 0 },
    });
    return { before, after: (await contactsNamed(hans)).length };
  }

  test("when a delivery stopped after Google created a contact, then the next one finds it by the recovery's signed tag and creates nothing twice", async () => {
    const { from } = await hansEntry();
    const { before, after } = await resumedAfter((tag) => restoreTagValue(tag, from));
    expect(after).toBe(before);
  });

  test("when a contact carries a tag of the recovery that its secret did not sign, then it is not taken for one the recovery created, and the contact is created", async () => {
    const { from } = await hansEntry();
    // Written by the user, who can read the recovery's id and Hans's resource name but not its secret.
    for (const forged of [
      (tag: RestoreTag) => `${tag.id} ${from}`,
      (tag: RestoreTag) => `${tag.id} ${from} ${"A".repeat(22)}`,
      (tag: RestoreTag) => restoreTagValue({ id: tag.id, secret: randomBytes(32) }, from),
    ]) {
      const { before, after } = await resumedAfter(forged);
      expect(after).toBe(before + 1);
    }
  });
});

describe("a user's contacts searched", () => {
  test("when the contacts are searched by a name or a word of an address, then the contact is listed with its address and group", async () => {
    const search = async (keyword: string) => {
      const answer = await setup.call(`/organizations/${setup.organization.organizationId}/search`, {
        method: "POST",
        body: { service: "contacts", resource: setup.workspace.user, keyword },
      });
      expect(answer.status).toBe(200);
      return answer.body as Extract<SearchResponse, { service: "contacts" }>;
    };
    for (const keyword of [vreni, "vreni example"]) {
      const found = await search(keyword);
      expect(found.service).toBe("contacts");
      expect(found.results.map((result) => [result.name, result.email, result.groups])).toEqual([
        [`Vreni ${vreni}`, "vreni@example.ch", ["Team"]],
      ]);
    }
  });
});

describe("a user's contacts browsed", () => {
  const browsed = async (query: Record<string, string>) => {
    const answer = await setup.call(
      `/organizations/${setup.organization.organizationId}/resources/${resourceId}/browse`,
      { method: "POST", body: termsBody({ service: "contacts", ...query }) },
    );
    expect(answer.status).toBe(200);
    return answer.body as Extract<BrowseResponse, { service: "contacts" }>;
  };
  const names = (answer: Extract<BrowseResponse, { service: "contacts" }>) =>
    answer.results.map((result) => result.name);

  test("when the address book is browsed, then all contacts are listed by name, a group shows its members, and a group the user does not have is refused", async () => {
    const all = await browsed({});
    expect(all.group).toBe("all");
    expect(all.groups[0]).toEqual({ group: "all", name: "All contacts" });
    expect(all.groups.at(-1)).toEqual({ group: "other", name: "Other contacts" });
    const teamGroup = all.groups.find((entry) => entry.name === "Team");
    expect(teamGroup).toEqual({ group: "group:team", name: "Team" });
    // Every contact, no group or other contact among them, by name.
    expect(all.results.every((result) => result.entry === "contact")).toBe(true);
    expect(names(all)).toEqual(expect.arrayContaining([`Hans ${hans}`, `Vreni ${vreni}`]));
    expect(names(all)).toEqual(
      [...names(all)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );

    const team = await browsed({ group: teamGroup!.group });
    expect(team.results.map((result) => [result.name, result.groups])).toEqual([
      [`Vreni ${vreni}`, ["Team"]],
    ]);
    expect(team.total).toBe(1);
    expect(names(await browsed({ group: "other" }))).toEqual([`Otto ${otto}`]);

    const refused = await setup.call(
      `/organizations/${setup.organization.organizationId}/resources/${resourceId}/browse`,
      { method: "POST", body: { service: "contacts", group: "group:nobody" } },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 400, message: BROWSE_MESSAGES.invalidGroup });
  });
});

type JCardProperty = [string, Record<string, unknown>, string, ...unknown[]];

/** The cards of a vCard file as an independent parser (Mozilla's ical.js) reads them, as jCard. */
function cardsOf(text: string): [string, JCardProperty[]][] {
  const parsed = ICAL.parse(text) as unknown[];
  return (typeof parsed[0] === "string" ? [parsed] : parsed) as [string, JCardProperty[]][];
}

/** The values of a card's properties of one name, one array per property. */
const cardValues = (card: JCardProperty[], name: string) =>
  card.filter((property) => property[0] === name).map(([, , , ...rest]) => rest);

/** The family name of a card (its N property's first part). */
const familyOf = (card: JCardProperty[]) => (cardValues(card, "n")[0]?.[0] as string[] | undefined)?.[0];

describe("a user's contacts exported", () => {
  test("when the contacts are exported, then one vCard 4.0 file holds a card per contact that an independent parser reads back with its name, address and group", async () => {
    const exports = exportsOf(setup.call, setup.organization);
    const started = await exports.start({ resourceId, service: "contacts" });
    expect(started.status).toBe(202);
    const job = await exports.finished((started.body as ExportJob).exportId);
    expect(job).toMatchObject({ state: "succeeded", format: "vcf", progress: { failed: 0 } });
    expect(job.fileName).toMatch(/-contacts-\d{4}-\d{2}-\d{2}\.vcf$/);
    const { bytes, disposition } = await exports.download(job.exportId);
    expect(disposition).toContain(job.fileName);
    const text = bytes.toString("utf8");
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
    const cards = cardsOf(text);
    const values = cardValues;
    const byFamily = (family: string) => cards.find(([, card]) => familyOf(card) === family);
    expect(cards.every(([name, card]) => name === "vcard" && values(card, "version")[0]?.[0] === "4.0")).toBe(
      true,
    );
    const vreniCard = byFamily(vreni)![1];
    expect(values(vreniCard, "fn")).toEqual([[`Vreni ${vreni}`]]);
    expect(values(vreniCard, "email")).toEqual([["vreni@example.ch"]]);
    expect(values(vreniCard, "categories").flat()).toContain("Team");
    expect(values(byFamily(hans)![1], "fn")).toEqual([[`Hans ${hans}`]]);
  });

  test("when a contact group of a browse is exported, then the vCard file holds its members alone and the job names the group", async () => {
    const exports = exportsOf(setup.call, setup.organization);
    const started = await exports.start({ resourceId, service: "contacts", group: "group:team" });
    expect(started.status).toBe(202);
    const job = await exports.finished((started.body as ExportJob).exportId);
    expect(job).toMatchObject({ state: "succeeded", within: "Team", progress: { exported: 1, failed: 0 } });
    const cards = cardsOf((await exports.download(job.exportId)).bytes.toString("utf8"));
    expect(cards.map(([, card]) => cardValues(card, "fn"))).toEqual([[[`Vreni ${vreni}`]]]);
    const refused = await exports.start({ resourceId, service: "contacts", group: "group:nobody" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: BROWSE_MESSAGES.invalidGroup });
  });
});

describe("an export at a date before a group was renamed", () => {
  /** Two days ago (UTC): the day the first backup is moved to, and the export's date (MM-DD-YYYY). */
  const earlier = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const [year, month, day] = earlier.split("-");
  const earlierDate = `${month}-${day}-${year}`;
  const renamed = "Team 2027";

  beforeAll(async () => {
    await backdateCatalog(setup.organization, resourceId, `${earlier}T12:00:00.000Z`);
    const { data: group } = await people.contactGroups.get({ resourceName: team });
    await people.contactGroups.update({
      resourceName: team,
      requestBody: { contactGroup: { name: renamed, etag: group.etag } },
    });
    const answer = await backupNow(setup.call, setup.organization, resourceId);
    expect(answer.status).toBe(202);
    const run = await finishedRun(setup.organization, resourceId, (answer.body as { runId: string }).runId);
    expect(run.state).toBe("succeeded");
  });

  /** The categories of each card of the exported file, by the card's family name. */
  async function exportedCategories(body: Record<string, unknown>): Promise<Map<string, string[]>> {
    const exports = exportsOf(setup.call, setup.organization);
    const started = await exports.start({ resourceId, service: "contacts", ...body });
    expect(started.status).toBe(202);
    const job = await exports.finished((started.body as ExportJob).exportId);
    expect(job).toMatchObject({ state: "succeeded", progress: { failed: 0 } });
    const cards = cardsOf((await exports.download(job.exportId)).bytes.toString("utf8"));
    return new Map(
      cards.map(([, card]) => [familyOf(card) ?? "", cardValues(card, "categories").flat() as string[]]),
    );
  }

  test("when the contacts are exported at that date, then the card names the group as it was then; exported as last backed up, by its new name", async () => {
    const then = await exportedCategories({ date: earlierDate });
    expect(then.get(vreni)).toEqual(["Team"]);
    expect(then.get(hans)).toEqual([]);
    const now = await exportedCategories({});
    const groups = [...now.values()].flat();
    expect(groups).toContain(renamed);
    expect(groups).not.toContain("Team");
  });
});
