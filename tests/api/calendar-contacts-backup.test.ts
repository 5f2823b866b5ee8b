/**
 * Calendar and Contacts backed up by the running product: a Zürich organisation's policy with calendars and
 * contacts, assigned to a user, backs up the user's mail, events and contacts in one run through the
 * official clients (Calendar v3, People v1) against the Workspace emulator, and the catalog holds each as an
 * item of its service. An organisation installed before the app asked for the Calendar and Contacts scopes
 * keeps its Gmail backup, and each of those services fails with Google's refusal, for which the console
 * says what to grant and where.
 */
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import type { Policy } from "@alpvault/contracts/policies";
import { accessToGrantText } from "@alpvault/contracts/services";
import { GMAIL_AND_DRIVE_SCOPES, SCOPES, testMessage } from "../../emulators/workspace/src/index";
import {
  REGION_DB,
  backedUpWithPolicy,
  finishedRun,
  itemsOf,
  organizationDoc,
  resourceOf,
  runsOf,
  type StoredRun,
} from "../support/backup-runs";
import { onboarded, setAccount, withRegionDb } from "../support/organizations";
import { GOLD } from "../support/policies";
import { calendarFor, peopleFor, workspaceAdmin } from "../support/workspace";

jest.setTimeout(120_000);

async function addUserData(user: string, marker: string): Promise<void> {
  const mail = await workspaceAdmin("POST", `/users/${user}/gmail/messages`, {
    raw: testMessage({ subject: `Plan ${marker}`, to: user, messageId: `${marker}@x.test` }).toString(
      "base64",
    ),
    encoding: "base64",
  });
  expect(mail.status).toBe(200);
  await calendarFor(user, [SCOPES.calendar]).events.insert({
    calendarId: "primary",
    requestBody: {
      summary: `Board meeting ${marker}`,
      start: { dateTime: "2026-11-30T09:00:00Z" },
      end: { dateTime: "2026-11-30T10:00:00Z" },
    },
  });
  // Made ten minutes ago, as an address book is: Google's sync requests see a write only after a
  // propagation delay of minutes (the emulator models it), so a contact made just now waits for the next run.
  const contacts = await workspaceAdmin("POST", `/users/${user}/people/contacts`, {
    contacts: [{ person: { names: [{ givenName: "Vreni", familyName: `Contact ${marker}` }] } }],
    ageMinutes: 10,
  });
  expect(contacts.status).toBe(200);
  await peopleFor(user, [SCOPES.contacts]).people.createContact({
    requestBody: { names: [{ givenName: "Just", familyName: `Made ${marker}` }] },
  });
}

/** The search fields of the resource's catalog items whose `field` is `value`. */
async function searchFieldsWhere(
  organization: OrganizationSummary,
  resourceId: string,
  field: string,
  value: string,
): Promise<unknown[]> {
  return withRegionDb(REGION_DB, async (db) =>
    (
      await organizationDoc(organization)(db)
        .collection("resources")
        .doc(resourceId)
        .collection("items")
        .where(field, "==", value)
        .get()
    ).docs.map((doc) => doc.get("search") as unknown),
  );
}

async function backUpEverything(planId: "zurich"): Promise<{
  setup: Awaited<ReturnType<typeof onboarded>>;
  resourceId: string;
  run: StoredRun;
}> {
  const setup = await onboarded();
  const { organization, workspace } = setup;
  await setAccount(organization, { planId, seats: 5 });
  await addUserData(workspace.user, organization.organizationId);
  const { resourceId, run } = await backedUpWithPolicy(setup, "Everything", [
    "emails",
    "contacts",
    "calendars",
  ]);
  return { setup, resourceId, run };
}

describe("a Zürich policy with calendars and contacts", () => {
  test("when it is assigned to a user, then one run backs up the mail, the calendar with its event and the address book, each as its service's item", async () => {
    const { setup, resourceId, run } = await backUpEverything("zurich");
    expect(run.state).toBe("succeeded");
    expect(run.services).toMatchObject({
      gmail: { state: "succeeded" },
      calendar: { state: "succeeded" },
      contacts: { state: "succeeded" },
    });
    const items = await itemsOf(setup.organization, resourceId);
    const kinds = items.map((item) => item.kind);
    expect(kinds.filter((kind) => kind === "calendar-entry")).toHaveLength(2);
    expect(kinds).toContain("contacts-entry");
    expect(kinds).toContain("gmail-message");
    const marker = setup.organization.organizationId;
    const event = (await searchFieldsWhere(setup.organization, resourceId, "search.entry", "event")).map(
      (search) => (search as { display?: { summary?: string } }).display?.summary,
    );
    expect(event).toEqual([`Board meeting ${marker}`]);
    // The resource's sizes count the calendar's backups beside the mail's, and its storage both.
    const resource = await resourceOf(setup.call, setup.organization, setup.workspace.user);
    expect(resource.calendarBackupBytes).toBeGreaterThan(0);
    expect(resource.mailBackupBytes).toBeGreaterThan(0);
    expect(resource.contactsBackupBytes).toBeGreaterThan(0);
    const names = (await searchFieldsWhere(setup.organization, resourceId, "kind", "contacts-entry")).map(
      (search) => JSON.stringify(search),
    );
    expect(names.some((search) => search.includes(`Contact ${marker}`))).toBe(true);
    // The contact made a moment ago is not in this first run: Google's sync requests see it only after the
    // propagation delay, so the next run takes it.
    expect(names.some((search) => search.includes(`Made ${marker}`))).toBe(false);
  });
});

describe("an organisation installed with only the Gmail and Drive scopes", () => {
  test("when its Zürich policy backs up calendars and contacts, then the mail is backed up and the run names the missing access", async () => {
    const setup = await onboarded();
    const { call, organization, workspace } = setup;
    await workspaceAdmin("POST", `/customers/${workspace.domain}/app:install`, {
      scopes: GMAIL_AND_DRIVE_SCOPES,
    });
    await setAccount(organization, { planId: "zurich", seats: 5 });
    await workspaceAdmin("POST", `/users/${workspace.user}/gmail/messages`, {
      raw: testMessage({
        subject: "Kept",
        to: workspace.user,
        messageId: `k.${organization.organizationId}@x.test`,
      }).toString("base64"),
      encoding: "base64",
    });
    const base = `/organizations/${organization.organizationId}/policies`;
    const created = (
      await call(base, { method: "POST", body: { ...GOLD, dataTypes: ["emails", "contacts", "calendars"] } })
    ).body as Policy;
    const { resourceId } = await resourceOf(call, organization, workspace.user);
    await call(`${base}/${created.policyId}/assign`, { method: "POST", body: { resourceIds: [resourceId] } });
    const [pending] = await runsOf(organization, resourceId);
    const run = await finishedRun(organization, resourceId, pending!.runId);
    const items = await itemsOf(organization, resourceId);
    expect(items.map((item) => item.kind)).toContain("gmail-message");
    expect(items.map((item) => item.kind)).not.toContain("calendar-entry");
    expect(run).toMatchObject({
      state: "failed",
      failureReason: "google-api-error",
      services: {
        gmail: { state: "succeeded" },
        calendar: { state: "failed", failureReason: "google-api-error", detail: "unauthorized_client" },
        contacts: { state: "failed", failureReason: "google-api-error", detail: "unauthorized_client" },
      },
    });
    // What the console shows with it: which access to grant, and where.
    expect(accessToGrantText("calendar", "unauthorized_client")).toContain(
      "https://www.googleapis.com/auth/calendar.acls.readonly",
    );
  });
});
