/**
 * The audit log's hash chain through the API: entries are sealed as they are written, and
 * GET …/audit-logs/verify proves the chain intact or names the first entry that was changed, deleted,
 * forged or never sealed (the test tampers through firebase-admin, as someone with database access could).
 */
import type { AuditChainVerification, AuditPage } from "@alpvault/contracts/audit";
import { ORGANIZATION_MESSAGES, type OrganizationSummary } from "@alpvault/contracts/organizations";
import { POLICY_MESSAGES } from "@alpvault/contracts/policies";
import type { Firestore } from "firebase-admin/firestore";
import {
  asUser,
  newWorkspace,
  onboarded,
  setAccount,
  withRegionDb,
  type ApiCaller,
} from "../support/organizations";

import { GOLD } from "../support/policies";
import { today } from "../support/backup-runs";
jest.setTimeout(60_000);

function withLog<T>(
  organization: OrganizationSummary,
  body: (logs: FirebaseFirestore.CollectionReference, db: Firestore) => Promise<T>,
): Promise<T> {
  const regionId = organization.subscriptions[0]?.region.id ?? "ch";
  return withRegionDb(`region-${regionId}`, (db) =>
    body(db.collection("organizations").doc(organization.organizationId).collection("auditLogs"), db),
  );
}

async function verify(call: ApiCaller, organization: OrganizationSummary) {
  const answer = await call(`/organizations/${organization.organizationId}/audit-logs/verify`);
  expect(answer.status).toBe(200);
  return answer.body as AuditChainVerification;
}

async function totalEntries(call: ApiCaller, organization: OrganizationSummary): Promise<number> {
  const path = `/organizations/${organization.organizationId}/audit-logs?start=2020-01-01&end=${today()}`;
  return ((await call(path)).body as AuditPage).totalEntries;
}

/** An organisation whose log holds a few entries: set-up, two sign-ins and three refused policy changes. */
async function withEntries() {
  const setUp = await onboarded();
  const { call, organization } = setUp;
  await call(`/organizations/${organization.organizationId}`);
  const again = await asUser(setUp.workspace.admin);
  await again(`/organizations/${organization.organizationId}`);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const refused = await call(`/organizations/${organization.organizationId}/policies`, {
      method: "POST",
      body: { ...GOLD, name: `Gold ${attempt}` },
    });
    expect(refused.body).toEqual({ code: 403, message: POLICY_MESSAGES.freePlan });
  }
  return setUp;
}

interface StoredEntry {
  id: string;
  date?: string;
  operation?: string;
  sealed?: boolean;
  seq?: number;
  prevHash?: string;
  hash?: string;
}

/** The sealed entries as stored, in chain order. */
async function chain(organization: OrganizationSummary): Promise<StoredEntry[]> {
  return withLog(organization, async (logs) =>
    (await logs.orderBy("seq").get()).docs.map((doc) => ({
      ...(doc.data() as Omit<StoredEntry, "id">),
      id: doc.id,
    })),
  );
}

test("when nothing is tampered with, then every entry is sealed as it is written and verify says intact with the right count", async () => {
  const { call, organization } = await withEntries();
  await setAccount(organization, { planId: "geneva" });
  const created = await call(`/organizations/${organization.organizationId}/policies`, {
    method: "POST",
    body: GOLD,
  });
  expect(created.status).toBe(201);
  // Sealed before the answer: the policy and its entry are one transaction, the seal follows it.
  const stored = await chain(organization);
  const total = await totalEntries(call, organization);
  expect(total).toBeGreaterThanOrEqual(6);
  expect(stored.map((entry) => entry.seq)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
  expect(stored.every((entry) => entry.sealed === true)).toBe(true);
  expect(stored[stored.length - 1]).toMatchObject({ operation: "policy.created", object: "Gold" });
  expect(stored[1]?.prevHash).toBe(stored[0]?.hash);

  const result = await verify(call, organization);
  expect(result).toEqual({
    intact: true,
    entries: total,
    head: { seq: total, hash: stored[stored.length - 1]?.hash },
    verifiedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as unknown,
    firstBroken: null,
  });
  // The list and its entries are as before: no seal fields.
  const page = (
    await call(`/organizations/${organization.organizationId}/audit-logs?start=${today()}&end=${today()}`)
  ).body as AuditPage;
  expect(Object.keys(page.entries[0] ?? {}).sort()).toEqual(
    ["actor", "date", "entryId", "failureReason", "object", "operation"].sort(),
  );
});

test("when an entry's object is edited, then verify names that entry: content changed", async () => {
  const { call, organization } = await withEntries();
  const [, second] = await chain(organization);
  await withLog(organization, (logs) => logs.doc(String(second?.id)).update({ object: "Nothing happened" }));
  expect(await verify(call, organization)).toMatchObject({
    intact: false,
    entries: 1,
    firstBroken: {
      reason: "content-changed",
      entryId: second?.id,
      seq: 2,
      date: second?.date,
      operation: second?.operation,
    },
  });
});

test("when an entry is deleted, then verify names the gap", async () => {
  const { call, organization } = await withEntries();
  const stored = await chain(organization);
  const [third, fourth] = [stored[2], stored[3]];
  await withLog(organization, (logs) => logs.doc(String(third?.id)).delete());
  expect(await verify(call, organization)).toMatchObject({
    intact: false,
    entries: 2,
    firstBroken: {
      reason: "entry-missing",
      message: "Entry 3 is missing before entry 4.",
      seq: 3,
      entryId: fourth?.id,
    },
  });
});

test("when the last entry is deleted, then verify names the entry missing at the end", async () => {
  const { call, organization } = await withEntries();
  const stored = await chain(organization);
  const last = stored[stored.length - 1];
  await withLog(organization, (logs) => logs.doc(String(last?.id)).delete());
  expect(await verify(call, organization)).toMatchObject({
    intact: false,
    entries: stored.length - 1,
    firstBroken: { reason: "entry-missing", seq: stored.length, entryId: null },
  });
});

test("when an entry is inserted without a seal, then verify names it as never sealed", async () => {
  const { call, organization } = await withEntries();
  const before = (await chain(organization)).length;
  await withLog(organization, (logs) =>
    logs.doc("inserted-entry").create({
      date: "2026-01-05T08:00:00.000Z",
      actor: "intruder@example.test",
      operation: "policy.deleted",
      object: "Gold",
      failureReason: null,
    }),
  );
  expect(await verify(call, organization)).toMatchObject({
    intact: false,
    entries: before,
    firstBroken: {
      reason: "not-sealed",
      entryId: "inserted-entry",
      date: "2026-01-05T08:00:00.000Z",
      operation: "policy.deleted",
    },
  });
  // Later writes are sealed and still leave it out of the chain.
  await call(`/organizations/${organization.organizationId}/policies`, { method: "POST", body: GOLD });
  expect(await verify(call, organization)).toMatchObject({
    intact: false,
    entries: before + 1,
    firstBroken: { reason: "not-sealed", entryId: "inserted-entry" },
  });
});

test("when an entry is inserted with a forged seal, then verify names it", async () => {
  const { call, organization } = await withEntries();
  const stored = await chain(organization);
  const last = stored[stored.length - 1];
  const forged = {
    date: "2026-01-05T08:00:00.000Z",
    actor: "intruder@example.test",
    operation: "policy.deleted",
    object: "Gold",
    failureReason: null,
    sealed: true,
  };
  // Beyond the head, linked to the last entry.
  await withLog(organization, (logs) =>
    logs
      .doc("forged-after")
      .create({ ...forged, seq: stored.length + 1, prevHash: last?.hash, hash: "f".repeat(64) }),
  );
  expect(await verify(call, organization)).toMatchObject({
    intact: false,
    entries: stored.length,
    firstBroken: { reason: "link-broken", entryId: "forged-after", seq: stored.length + 1 },
  });
  // In the middle, holding entry 2's place.
  await withLog(organization, async (logs) => {
    await logs.doc("forged-after").delete();
    await logs
      .doc("zz-forged-in-place")
      .create({ ...forged, seq: 2, prevHash: stored[0]?.hash, hash: stored[1]?.hash });
  });
  expect(await verify(call, organization)).toMatchObject({
    intact: false,
    entries: 2,
    firstBroken: { reason: "link-broken", entryId: "zz-forged-in-place", seq: 2 },
  });
});

test("when 20 entries are appended at once, then they form one unbroken chain", async () => {
  const { call, organization } = await onboarded();
  const attempts = await Promise.all(
    Array.from({ length: 20 }, (_, attempt) =>
      call(`/organizations/${organization.organizationId}/policies`, {
        method: "POST",
        body: { ...GOLD, name: `Gold ${attempt}` },
      }),
    ),
  );
  expect(attempts.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 403));
  const total = await totalEntries(call, organization);
  expect(total).toBeGreaterThanOrEqual(21);
  expect(await verify(call, organization)).toMatchObject({
    intact: true,
    entries: total,
    head: { seq: total },
    firstBroken: null,
  });
  const stored = await chain(organization);
  expect(stored.map((entry) => entry.seq)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
  expect(new Set(stored.map((entry) => entry.hash)).size).toBe(total);
  // A hang bound, not a speed target: the Functions emulator serves one request per worker process and
  // starts a new one (our whole function code loaded again) for each request that finds every worker
  // busy, so 20 requests at once may mean 20 cold starts on two cores shared with the browser suites
  // (92 s once, against about 20 s on a quiet machine).
}, 180_000);

test("when someone other than the organisation's admin asks, then a non-admin gets 403 and a stranger 404, and nothing writes entries", async () => {
  const { workspace, call, organization } = await onboarded();
  const path = `/organizations/${organization.organizationId}/audit-logs/verify`;
  const user = await asUser(workspace.user);
  expect(await user(path)).toMatchObject({
    status: 403,
    body: { code: 403, message: ORGANIZATION_MESSAGES.notAdmin },
  });
  const stranger = await asUser((await newWorkspace({ installed: true })).admin);
  expect(await stranger(path)).toMatchObject({
    status: 404,
    body: { code: 404, message: ORGANIZATION_MESSAGES.organizationNotFound },
  });
  for (const method of ["DELETE", "PUT", "PATCH", "POST"]) {
    expect((await call(path, { method })).status).toBe(404);
  }
  expect((await call(`/organizations/not%2Fan-id/audit-logs/verify`)).status).toBe(404);
  expect(await verify(call, organization)).toMatchObject({ intact: true });
});
