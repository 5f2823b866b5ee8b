import { SCOPES } from "../auth";
import {
  TEST_ADMIN,
  TEST_DOMAIN,
  TEST_USER,
  googleError,
  startHarness,
  type Harness,
} from "../testing/harness";
import { MARKETPLACE_APPLICATION_ID } from "./routes";

let harness: Harness;

beforeEach(async () => {
  // These tests check the Directory's answers, not timing: the latency model is off for this file.
  harness = await startHarness({ latency: { enabled: false } });
  for (const name of ["carla", "dario", "elena"]) {
    harness.emulator.directory.addUser({
      email: `${name}@${TEST_DOMAIN}`,
      givenName: name,
      familyName: "Muster",
    });
  }
  harness.emulator.directory.addUser({
    email: `former@${TEST_DOMAIN}`,
    givenName: "Former",
    familyName: "Staff",
    suspended: true,
  });
});
afterEach(() => harness.stop());

describe("Directory users.list", () => {
  test("when an admin pages through my_customer, then every user comes once, sorted by email, with Google's shape", async () => {
    const directory = harness.directory(TEST_ADMIN);
    const emails: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const { data } = await directory.users.list({ customer: "my_customer", maxResults: 2, pageToken });
      expect(data.kind).toBe("admin#directory#users");
      expect(data.users?.length).toBeLessThanOrEqual(2);
      emails.push(...(data.users ?? []).map((user) => user.primaryEmail ?? ""));
      pageToken = data.nextPageToken ?? undefined;
      pages += 1;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(emails).toEqual([...emails].sort());
    expect(emails).toHaveLength(6);
    const { data } = await directory.users.list({ customer: "my_customer", maxResults: 500 });
    const admin = data.users?.find((user) => user.primaryEmail === TEST_ADMIN);
    expect(admin).toMatchObject({
      kind: "admin#directory#user",
      id: expect.stringMatching(/^\d{21}$/),
      name: { givenName: "Test", familyName: "Admin", fullName: "Test Admin" },
      isAdmin: true,
      suspended: false,
      customerId: harness.emulator.directory.customer(TEST_DOMAIN)?.id,
    });
    expect(data.nextPageToken).toBeUndefined();
  });

  test("when a user is suspended, then the list still shows them, marked suspended", async () => {
    const { data } = await harness.directory(TEST_ADMIN).users.list({ domain: TEST_DOMAIN });
    expect(data.users?.find((user) => user.primaryEmail === `former@${TEST_DOMAIN}`)).toMatchObject({
      suspended: true,
      suspensionReason: "ADMIN",
    });
  });

  test("when a non-admin lists users, or an admin lists another customer, then it is 403 Not Authorized", async () => {
    const nonAdmin = await googleError(harness.directory(TEST_USER).users.list({ customer: "my_customer" }));
    expect(nonAdmin).toMatchObject({
      status: 403,
      reason: "forbidden",
      message: "Not Authorized to access this resource/api",
    });
    const foreign = await googleError(harness.directory(TEST_ADMIN).users.list({ customer: "C0other" }));
    expect(foreign.status).toBe(403);
    const foreignDomain = await googleError(
      harness.directory(TEST_ADMIN).users.list({ domain: "other.test" }),
    );
    expect(foreignDomain.status).toBe(403);
  });

  test("when neither customer nor domain is given, or the page token is forged, then it is 400", async () => {
    expect((await googleError(harness.directory(TEST_ADMIN).users.list({}, { retry: false }))).status).toBe(
      400,
    );
    const forged = await googleError(
      harness.directory(TEST_ADMIN).users.list({ customer: "my_customer", pageToken: "bm90LWEtdG9rZW4" }),
    );
    expect(forged.status).toBe(400);
  });
});

describe("Directory users.get", () => {
  test("when an admin gets a user by email or by id, then isAdmin and the other admin fields are there", async () => {
    const directory = harness.directory(TEST_ADMIN);
    const { data: byEmail } = await directory.users.get({ userKey: TEST_USER });
    expect(byEmail).toMatchObject({
      primaryEmail: TEST_USER,
      isAdmin: false,
      isDelegatedAdmin: false,
      orgUnitPath: "/",
    });
    const { data: byId } = await directory.users.get({ userKey: byEmail.id ?? "" });
    expect(byId.primaryEmail).toBe(TEST_USER);
  });

  test("when the user does not exist, then an admin gets 404 Resource Not Found", async () => {
    const failure = await googleError(
      harness.directory(TEST_ADMIN).users.get({ userKey: `ghost@${TEST_DOMAIN}` }),
    );
    expect(failure).toMatchObject({
      status: 404,
      reason: "notFound",
      message: "Resource Not Found: userKey",
    });
  });

  test("when a non-admin reads with the admin view, then it is 403; with domain_public they see public fields only", async () => {
    const directory = harness.directory(TEST_USER);
    expect((await googleError(directory.users.get({ userKey: TEST_USER }))).status).toBe(403);
    const { data } = await directory.users.get({ userKey: TEST_ADMIN, viewType: "domain_public" });
    expect(data.primaryEmail).toBe(TEST_ADMIN);
    expect(data.isAdmin).toBeUndefined();
  });

  test("when a user is renamed, then the old address still resolves to the user with the new primary email", async () => {
    const renamed = await harness.admin("PATCH", `/users/${TEST_USER}`, {
      primaryEmail: `renamed@${TEST_DOMAIN}`,
    });
    expect(renamed.status).toBe(200);
    const { data } = await harness.directory(TEST_ADMIN).users.get({ userKey: TEST_USER });
    expect(data.primaryEmail).toBe(`renamed@${TEST_DOMAIN}`);
    expect(data.aliases).toEqual([TEST_USER]);
  });

  test("when a user is deleted, then they are gone from get and list", async () => {
    expect((await harness.admin("DELETE", `/users/carla@${TEST_DOMAIN}`)).status).toBe(204);
    const directory = harness.directory(TEST_ADMIN);
    expect((await googleError(directory.users.get({ userKey: `carla@${TEST_DOMAIN}` }))).status).toBe(404);
    const { data } = await directory.users.list({ customer: "my_customer" });
    expect(data.users?.map((user) => user.primaryEmail)).not.toContain(`carla@${TEST_DOMAIN}`);
  });
});

describe("users without Gmail", () => {
  test("when a user is added with Gmail off through the admin API, then the Directory shows no mailbox for them; turned on, it does", async () => {
    const added = await harness.admin<{ gmailEnabled: boolean }>("POST", "/users", {
      email: `drive.only@${TEST_DOMAIN}`,
      givenName: "Drive",
      familyName: "Only",
      gmailEnabled: false,
    });
    expect(added).toMatchObject({ status: 200, body: { gmailEnabled: false } });
    const directory = harness.directory(TEST_ADMIN);
    const { data } = await directory.users.get({ userKey: `drive.only@${TEST_DOMAIN}` });
    expect(data.isMailboxSetup).toBe(false);
    const { data: user } = await directory.users.get({ userKey: TEST_USER });
    expect(user.isMailboxSetup).toBe(true);
    const patched = await harness.admin("PATCH", `/users/drive.only@${TEST_DOMAIN}`, { gmailEnabled: true });
    expect(patched).toMatchObject({ status: 200, body: { gmailEnabled: true } });
    expect((await directory.users.get({ userKey: `drive.only@${TEST_DOMAIN}` })).data.isMailboxSetup).toBe(
      true,
    );
    expect((await harness.admin("PATCH", `/users/${TEST_USER}`, { gmailEnabled: "no" })).status).toBe(400);
  });

  test("when the directory is saved and restored, then Gmail stays off; a state saved before the setting existed has Gmail on", () => {
    const store = harness.emulator.directory;
    const user = store.addUser({
      email: `off@${TEST_DOMAIN}`,
      givenName: "Off",
      familyName: "Mail",
      gmailEnabled: false,
    });
    const snapshot = JSON.parse(JSON.stringify(store.snapshot())) as ReturnType<typeof store.snapshot>;
    store.restore(snapshot);
    expect(store.user(user.id)?.gmailEnabled).toBe(false);
    for (const saved of snapshot.users) delete (saved as Partial<typeof saved>).gmailEnabled;
    store.restore(snapshot);
    expect(store.user(user.id)?.gmailEnabled).toBe(true);
  });
});

describe("Marketplace licence (appsmarket v2 customerLicense)", () => {
  const licence = (customer: string, applicationId = MARKETPLACE_APPLICATION_ID) =>
    harness
      .jwt(undefined, [SCOPES.marketplaceLicense])
      .request<{ state: string; customerId: string; kind: string }>({
        url: `${harness.url}/appsmarket/v2/customerLicense/${applicationId}/${customer}`,
        retry: false,
      });

  test("when the app is installed, then the licence is ACTIVE; after uninstalling, UNLICENSED", async () => {
    const active = await licence(TEST_DOMAIN);
    expect(active.data).toMatchObject({
      kind: "appsmarket#customerLicense",
      state: "ACTIVE",
      customerId: TEST_DOMAIN,
    });
    await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:uninstall`);
    expect((await licence(TEST_DOMAIN)).data.state).toBe("UNLICENSED");
    await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:install`, {});
    expect((await licence(TEST_DOMAIN)).data.state).toBe("ACTIVE");
  });

  test("when the customer or the application is unknown, then it is 404", async () => {
    expect((await googleError(licence("nobody.test"))).status).toBe(404);
    expect((await googleError(licence(TEST_DOMAIN, "999"))).status).toBe(404);
  });
});
