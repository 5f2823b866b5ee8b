/**
 * What the installation grants, service by service (docs/api.md "Organisations", `GET …/access`), against
 * the Workspace emulator's domain-wide delegation, which refuses a token for a scope the installation does
 * not grant as Google does (`unauthorized_client`): an installation without the Calendar scopes (one made
 * before Calendar was protected) keeps Gmail, Drive and Contacts, and says what to grant for Calendar.
 */
import type { AccessResponse } from "@alpvault/contracts/organizations";
import { SERVICES, scopesToGrantText } from "@alpvault/contracts/services";
import { onboarded, setAccount } from "../support/organizations";
import { workspaceAdmin } from "../support/workspace";

jest.setTimeout(120_000);

let setup: Awaited<ReturnType<typeof onboarded>>;
const access = async () => {
  const answer = await setup.call(`/organizations/${setup.organization.organizationId}/access`);
  expect(answer.status).toBe(200);
  return answer.body as AccessResponse;
};
const byService = (answer: AccessResponse) =>
  Object.fromEntries(answer.services.map((entry) => [entry.service, entry]));

beforeAll(async () => {
  setup = await onboarded();
});

afterAll(async () => {
  await workspaceAdmin("POST", `/customers/${setup.workspace.domain}/app:install`, {});
});

describe("what the installation grants", () => {
  test("when every scope is granted, then each service can back up and restore, and the plan says which it includes", async () => {
    const answer = await access();
    expect(answer.services.map((entry) => entry.service)).toEqual(["gmail", "drive", "calendar", "contacts"]);
    for (const entry of answer.services) {
      expect(entry).toMatchObject({ backup: true, restore: true, missingScopes: [], grant: null });
    }
    // The free plan protects Gmail and Drive only.
    expect(answer.services.map((entry) => [entry.service, entry.inPlan])).toEqual([
      ["gmail", true],
      ["drive", true],
      ["calendar", false],
      ["contacts", false],
    ]);
    await setAccount(setup.organization, { planId: "zurich", seats: 5 });
    expect((await access()).services.every((entry) => entry.inPlan)).toBe(true);
  });

  test("when the installation lacks the Calendar scopes, then Calendar says what to grant and where, and the other services are untouched", async () => {
    const calendarScopes = [
      ...new Set([...SERVICES.calendar.scopes.backup, ...SERVICES.calendar.scopes.restore]),
    ];
    const revoked = await workspaceAdmin("POST", `/customers/${setup.workspace.domain}/scopes:revoke`, {
      scopes: calendarScopes,
    });
    expect(revoked.status).toBe(200);
    const services = byService(await access());
    expect(services.calendar).toEqual({
      service: "calendar",
      name: "Calendar",
      inPlan: true,
      backup: false,
      restore: false,
      missingScopes: calendarScopes,
      grant: scopesToGrantText("calendar", calendarScopes),
    });
    expect(services.calendar!.grant).toContain("Manage domain-wide delegation");
    for (const service of ["gmail", "drive", "contacts"]) {
      expect(services[service]).toMatchObject({ backup: true, restore: true, grant: null });
    }
  });

  test("when only the restore scope is missing, then backups still work and the one scope is named", async () => {
    await workspaceAdmin("POST", `/customers/${setup.workspace.domain}/app:install`, {});
    const [restoreScope] = SERVICES.contacts.scopes.restore;
    await workspaceAdmin("POST", `/customers/${setup.workspace.domain}/scopes:revoke`, {
      scopes: [restoreScope],
    });
    expect(byService(await access()).contacts).toMatchObject({
      backup: true,
      restore: false,
      missingScopes: [restoreScope],
    });
  });
});
