/**
 * Only a Google sign-in whose address Google verified reaches an organisation, and only as the very Google
 * account the Workspace knows: an e-mail/password account or an unverified Google address claiming a super
 * admin's address gets 403, reads and changes nothing, and leaves an "Access refused" entry in the audit log
 * of the organisation it aimed at.
 */
import { AUTH_MESSAGES } from "@alpvault/contracts/errors";
import type { AuditEntry, AuditPage } from "@alpvault/contracts/audit";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import type { Policy } from "@alpvault/contracts/policies";
import { DEFAULT_SECRET_ID, type SecretsResponse } from "@alpvault/contracts/secrets";
import { signInWithGoogle, signUpWithPassword } from "../support/auth-emulator";
import { googleSubOf, onboarded, withIdToken, type ApiCaller } from "../support/organizations";
import { workspaceAdmin } from "../support/workspace";
import { today } from "../support/backup-runs";

let setup: Awaited<ReturnType<typeof onboarded>>;
let base: string;
/** Super admins of the organisation who never signed in to Alpvault: the addresses the attackers claim. */
let claimed: { password: string; unverified: string; otherAccount: string };

beforeAll(async () => {
  setup = await onboarded();
  base = `/organizations/${setup.organization.organizationId}`;
  claimed = {
    password: `second-admin@${setup.workspace.domain}`,
    unverified: `third-admin@${setup.workspace.domain}`,
    otherAccount: `fourth-admin@${setup.workspace.domain}`,
  };
  for (const email of Object.values(claimed)) {
    const created = await workspaceAdmin("POST", "/users", { email, givenName: "Super", isAdmin: true });
    if (created.status !== 200) throw new Error(`Creating ${email} failed: ${JSON.stringify(created.body)}`);
  }
});

/** What an attacker would want to read or change, as the real admin sees it. */
async function organizationState(call: ApiCaller) {
  const [secrets, policy, resources] = await Promise.all([
    call(`${base}/secrets`),
    call(`${base}/policies/default`),
    call(`${base}/resources`),
  ]);
  return {
    secrets: (secrets.body as SecretsResponse).secrets,
    policy: policy.body as Policy,
    resources: resources.body,
  };
}

async function refusedEntries(): Promise<AuditEntry[]> {
  const answer = await setup.call(`${base}/audit-logs?start=${today()}&end=${today()}&pageSize=50`);
  expect(answer.status).toBe(200);
  return (answer.body as AuditPage).entries.filter((entry) => entry.operation === "access.refused");
}

/**
 * The refused-access entries of `actor` for calls made from minute `since` (of the epoch) to now: one per
 * minute the calls touched, never two in one minute, whatever the number of calls (a flood of refused calls
 * cannot flood the log). The calls take well under a minute, but may cross into the next one.
 */
async function refusedOncePerMinute(actor: string, since: number): Promise<AuditEntry[]> {
  const minuteOf = (date: string | number) => Math.floor(new Date(date).getTime() / 60_000);
  const minutesTouched = minuteOf(Date.now()) - since + 1;
  const entries = (await refusedEntries()).filter((entry) => entry.actor === actor);
  const minutes = entries.map((entry) => minuteOf(entry.date));
  expect(entries.length).toBeGreaterThanOrEqual(1);
  expect(entries.length).toBeLessThanOrEqual(minutesTouched);
  expect(new Set(minutes).size).toBe(entries.length);
  return entries;
}

/** The attacks of the issue: export the whole mailbox, delete a key, cut retention to one day. */
async function attack(call: ApiCaller) {
  const mailbox = `user-${await googleSubOf(setup.workspace.admin)}`;
  return [
    await call(`${base}/exports/mbox`, { method: "POST", body: { resourceId: mailbox, service: "gmail" } }),
    await call(`${base}/secrets/${DEFAULT_SECRET_ID}`, { method: "DELETE" }),
    await call(`${base}/policies/default`, { method: "PATCH", body: { retentionDays: 1 } }),
    await call(`${base}`),
  ];
}

test("when an e-mail/password account claims a super admin's address, then every call is 403, nothing changes, and the attempt is audited", async () => {
  const before = await organizationState(setup.call);
  const attacker = await signUpWithPassword(claimed.password, "correct horse battery staple");
  const since = Math.floor(Date.now() / 60_000);
  for (const answer of await attack(withIdToken(attacker.idToken))) {
    expect(answer).toMatchObject({ status: 403, body: { code: 403, message: AUTH_MESSAGES.notGoogle } });
    expect(answer.contentType).toMatch(/application\/json/);
  }
  expect(await organizationState(setup.call)).toEqual(before);

  const entries = await refusedOncePerMinute(claimed.password, since);
  expect(entries[0]).toMatchObject({
    object: expect.stringMatching(new RegExp(`^(POST|DELETE|PATCH|GET) ${base}`)),
    failureReason: `${AUTH_MESSAGES.notGoogle} Sign-in method: password.`,
  });
});

test("when a Google sign-in whose address Google did not verify claims a super admin's address, then 403, nothing changes, and the attempt is audited", async () => {
  const before = await organizationState(setup.call);
  // Even with the right Google account id: an unverified address is not the admin's.
  const attacker = await signInWithGoogle({
    sub: await googleSubOf(claimed.unverified),
    email: claimed.unverified,
    emailVerified: false,
  });
  const since = Math.floor(Date.now() / 60_000);
  for (const answer of await attack(withIdToken(attacker.idToken))) {
    expect(answer).toMatchObject({
      status: 403,
      body: { code: 403, message: AUTH_MESSAGES.unverifiedEmail },
    });
  }
  expect(await organizationState(setup.call)).toEqual(before);

  const entries = await refusedOncePerMinute(claimed.unverified, since);
  expect(entries[0]!.failureReason).toBe(`${AUTH_MESSAGES.unverifiedEmail} Sign-in method: google.com.`);
});

test("when a verified Google account that is not the Workspace's account of that address calls, then 403 and nothing changes", async () => {
  const before = await organizationState(setup.call);
  // A Google account of its own (a new id each run: the Auth emulator keeps accounts between files).
  const other = await signInWithGoogle({ sub: `108${Date.now()}`, email: claimed.otherAccount });
  for (const answer of await attack(withIdToken(other.idToken))) {
    expect(answer).toMatchObject({
      status: 403,
      body: { code: 403, message: ORGANIZATION_MESSAGES.otherGoogleAccount },
    });
  }
  expect(await organizationState(setup.call)).toEqual(before);
});

test("when a refused account calls onboarding routes, then 403 there too, and no organisation's log gets an entry", async () => {
  const attacker = await signUpWithPassword(`visitor@${setup.workspace.domain}`, "another long password");
  const call = withIdToken(attacker.idToken);
  for (const answer of [
    await call("/installation"),
    await call("/organizations", { method: "POST", body: { regionId: "us" } }),
    await call("/health"),
  ]) {
    expect(answer).toMatchObject({ status: 403, body: { code: 403, message: AUTH_MESSAGES.notGoogle } });
  }
  expect((await refusedEntries()).filter((entry) => entry.actor.startsWith("visitor@"))).toEqual([]);
});

test("when the real admin calls after the attacks, then everything works for them", async () => {
  const answers = await Promise.all([setup.call(`${base}`), setup.call("/installation")]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
});
