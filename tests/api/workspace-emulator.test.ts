/**
 * The stack's Workspace emulator, as `npm start` runs it: on its fixed port, seeded with the demo
 * organisation, its key file written where the functions read it.
 */
import { MARKETPLACE_APPLICATION_ID, SCOPES } from "../../emulators/workspace/src/index";
import {
  DEMO_ADMIN,
  DEMO_DOMAIN,
  directoryFor,
  gmailFor,
  workspaceAdmin,
  workspaceJwt,
} from "../support/workspace";

afterAll(async () => {
  // Leave the demo organisation as seeded: the app not installed.
  await workspaceAdmin("POST", `/customers/${DEMO_DOMAIN}/app:uninstall`);
});

test("when the stack runs, then the demo Workspace is served on its port with the app not installed", async () => {
  const licence = await workspaceJwt(undefined, [SCOPES.marketplaceLicense]).request<{ state: string }>({
    url: `${process.env.WORKSPACE_EMULATOR_URL}/appsmarket/v2/customerLicense/${MARKETPLACE_APPLICATION_ID}/${DEMO_DOMAIN}`,
  });
  expect(licence.data.state).toBe("UNLICENSED");
  await expect(
    workspaceJwt(DEMO_ADMIN, [SCOPES.directoryUserReadonly]).getAccessToken(),
  ).rejects.toMatchObject({
    response: { status: 401, data: { error: "unauthorized_client" } },
  });
});

test("when the app is installed through the admin API, then official clients read the demo directory and mailboxes", async () => {
  expect((await workspaceAdmin("POST", `/customers/${DEMO_DOMAIN}/app:install`, {})).status).toBe(200);
  const { data } = await directoryFor(DEMO_ADMIN, [SCOPES.directoryUserReadonly]).users.list({
    customer: "my_customer",
  });
  const users = data.users ?? [];
  // The roster of 8 and the Drive-only user of the awkward cases (Gmail off: no mailbox).
  expect(users.length).toBe(9);
  expect(users.filter((user) => user.isMailboxSetup === false).map((user) => user.primaryEmail)).toEqual([
    `noemi.frei@${DEMO_DOMAIN}`,
  ]);
  expect(users.filter((user) => user.isAdmin).map((user) => user.primaryEmail)).toEqual([DEMO_ADMIN]);
  expect(users.some((user) => user.suspended)).toBe(true);
  const profile = await gmailFor(DEMO_ADMIN, [SCOPES.gmailReadonly]).users.getProfile({ userId: "me" });
  expect(profile.data.emailAddress).toBe(DEMO_ADMIN);
  expect(profile.data.messagesTotal).toBeGreaterThanOrEqual(30);
});
