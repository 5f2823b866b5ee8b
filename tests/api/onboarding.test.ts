/**
 * Onboarding through the API (docs/requirements.md#states-and-flows, #calls-the-web-makes): regions, the installation answer for each kind of account
 * (which decides the onboarding step), and the one-time region choice that creates the organisation.
 */
import type {
  InstallationResponse,
  OrganizationSummary,
  RegionsResponse,
} from "@alpvault/contracts/organizations";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { workspaceAdmin } from "../support/workspace";
import { asUser, newWorkspace } from "../support/organizations";

/** The step docs/requirements.md#states-and-flows derives from an installation answer: 1 app missing, 2 not admin, 3 admin. */
function onboardingStep(installation: InstallationResponse): 1 | 2 | 3 {
  if (!installation.hasGWInstalled) return 1;
  return installation.isAdmin ? 3 : 2;
}

/** docs/requirements.md#states-and-flows: complete when the admin's installed domain has an organisation with a subscription in a region. */
function onboardingComplete(installation: InstallationResponse): boolean {
  return (
    installation.isAdmin &&
    installation.hasGWInstalled &&
    installation.organizations.some((organization) =>
      organization.subscriptions.some((subscription) => Boolean(subscription.region?.id)),
    )
  );
}

test("when regions are asked for, then Switzerland, the European Union and the United States are offered with their hosts", async () => {
  const call = await asUser(`reader@${(await newWorkspace({ installed: true })).domain}`);
  const answer = await call("/regions");
  expect(answer.status).toBe(200);
  const { regions } = answer.body as RegionsResponse;
  expect(regions.map(({ id, label, location }) => ({ id, label, location }))).toEqual([
    { id: "ch", label: "Switzerland", location: "europe-west6" },
    { id: "eu", label: "European Union", location: "europe-west1" },
    { id: "us", label: "United States", location: "us-central1" },
  ]);
  for (const region of regions) expect(region.domain).toEqual(expect.any(String));
});

describe("installation answer and onboarding step", () => {
  test("when the Workspace has not installed the app, then the admin is at step 1", async () => {
    const workspace = await newWorkspace({ installed: false });
    const answer = await (await asUser(workspace.admin))("/installation");
    expect(answer.status).toBe(200);
    const installation = answer.body as InstallationResponse;
    expect(installation).toMatchObject({
      hasGWInstalled: false,
      isAdmin: false,
      organizations: [],
      user: { email: workspace.admin, domain: workspace.domain, hasWorkspaceAccount: true },
    });
    expect(onboardingStep(installation)).toBe(1);
  });

  test("when the app is installed, then a non-admin is at step 2 and the super admin at step 3", async () => {
    const workspace = await newWorkspace({ installed: true });
    const user = (await (await asUser(workspace.user))("/installation")).body as InstallationResponse;
    expect(user).toMatchObject({ hasGWInstalled: true, isAdmin: false, organizations: [] });
    expect(onboardingStep(user)).toBe(2);
    const admin = (await (await asUser(workspace.admin))("/installation")).body as InstallationResponse;
    expect(admin).toMatchObject({ hasGWInstalled: true, isAdmin: true, organizations: [] });
    expect(onboardingStep(admin)).toBe(3);
    expect(onboardingComplete(admin)).toBe(false);
  });

  test("when the app is installed later through the emulator, then the same admin moves from step 1 to 3", async () => {
    const workspace = await newWorkspace({ installed: false });
    const call = await asUser(workspace.admin);
    expect(onboardingStep((await call("/installation")).body as InstallationResponse)).toBe(1);
    await workspaceAdmin("POST", `/customers/${workspace.domain}/app:install`, {});
    expect(onboardingStep((await call("/installation")).body as InstallationResponse)).toBe(3);
  });

  test("when a consumer Google account or a stranger to every Workspace signs in, then it has no Workspace account", async () => {
    const consumer = (await (await asUser("someone.private@gmail.com"))("/installation"))
      .body as InstallationResponse;
    expect(consumer).toMatchObject({
      hasGWInstalled: false,
      isAdmin: false,
      user: { domain: null, hasWorkspaceAccount: false },
    });
    const workspace = await newWorkspace({ installed: true });
    const stranger = (await (await asUser(`ghost@${workspace.domain}`))("/installation"))
      .body as InstallationResponse;
    expect(stranger).toMatchObject({ hasGWInstalled: false, user: { hasWorkspaceAccount: false } });
  });
});

describe("subscription set-up (the region choice)", () => {
  test("when the admin chooses a region, then the organisation is created once, on the free plan, and onboarding is complete", async () => {
    const workspace = await newWorkspace({ installed: true });
    const call = await asUser(workspace.admin);
    const created = await call("/organizations", { method: "POST", body: { regionId: "ch" } });
    expect(created.status).toBe(201);
    const organization = created.body as OrganizationSummary;
    expect(organization).toMatchObject({
      organizationId: expect.stringMatching(/^[0-9A-Za-z_-]{10}$/),
      plan: { name: "Matterhorn" },
      subscriptions: [
        {
          subscriptionId: expect.stringMatching(/^[0-9A-Za-z_-]{10}$/),
          region: { id: "ch", label: "Switzerland" },
        },
      ],
    });
    const installation = (await call("/installation")).body as InstallationResponse;
    expect(installation.organizations).toEqual([organization]);
    expect(onboardingComplete(installation)).toBe(true);

    // A retry of the same choice (after a failed set-up) answers the same organisation...
    const retried = await call("/organizations", { method: "POST", body: { regionId: "ch" } });
    expect(retried.status).toBe(200);
    expect((retried.body as OrganizationSummary).organizationId).toBe(organization.organizationId);
    // ...and another region is refused: the region cannot change once confirmed.
    const changed = await call("/organizations", { method: "POST", body: { regionId: "us" } });
    expect(changed).toMatchObject({
      status: 409,
      body: { code: 409, message: ORGANIZATION_MESSAGES.regionAlreadyChosen },
    });
  });

  test("when two set-ups of one domain race, then one organisation results", async () => {
    const workspace = await newWorkspace({ installed: true });
    const call = await asUser(workspace.admin);
    const answers = await Promise.all([
      call("/organizations", { method: "POST", body: { regionId: "eu" } }),
      call("/organizations", { method: "POST", body: { regionId: "eu" } }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    const ids = answers.map((answer) => (answer.body as OrganizationSummary).organizationId);
    expect(ids[0]).toBe(ids[1]);
  });

  test("when the region is unknown or missing, then it is 400 with a message", async () => {
    const workspace = await newWorkspace({ installed: true });
    const call = await asUser(workspace.admin);
    for (const body of [{ regionId: "mars" }, {}, { regionId: 7 }]) {
      expect(await call("/organizations", { method: "POST", body })).toMatchObject({
        status: 400,
        body: { code: 400, message: ORGANIZATION_MESSAGES.invalidRegion },
      });
    }
  });

  test("when the app is not installed or the caller is not a super admin, then set-up is refused with the required texts", async () => {
    const notInstalled = await newWorkspace({ installed: false });
    expect(
      await (
        await asUser(notInstalled.admin)
      )("/organizations", { method: "POST", body: { regionId: "ch" } }),
    ).toMatchObject({ status: 403, body: { code: 403, message: ORGANIZATION_MESSAGES.notInstalled } });
    const installed = await newWorkspace({ installed: true });
    expect(
      await (
        await asUser(installed.user)
      )("/organizations", { method: "POST", body: { regionId: "ch" } }),
    ).toMatchObject({ status: 403, body: { code: 403, message: ORGANIZATION_MESSAGES.notAdmin } });
  });
});
