/**
 * Policies as their repository writes them decode and read back as written (with the resources and runs
 * an assignment changes); one that does not decode is left out of the list and fails a read with its
 * kind and path.
 */
import { logger } from "firebase-functions";
import { DEFAULT_POLICY, DEFAULT_POLICY_ID } from "@alpvault/contracts/policies";
import { regionDb } from "../lib/firebase";
import { tenantDb } from "../lib/tenancy";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { applySync, listResources } from "../resources/repo";
import { readRun } from "../backups/repo";
import { assignPolicy, createPolicy, ensureDefaultPolicy, getPolicy, storedPolicies } from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const NOW = new Date("2026-03-01T10:00:00.000Z");
const at = NOW.toISOString();

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test("when policies are created and assigned, then they, the resources and the queued runs read back as written", async () => {
  await ensureDefaultPolicy(scope, NOW);
  const input = {
    ...DEFAULT_POLICY,
    name: "Hourly mail",
    dataTypes: ["emails" as const],
    frequency: 24 as const,
  };
  const created = await tenantDb(scope).runTransaction(async (transaction) =>
    createPolicy(transaction, scope, input, "admin@example.test", NOW),
  );
  const stored = await storedPolicies(scope);
  expect(stored).toEqual(
    expect.arrayContaining([
      { ...DEFAULT_POLICY, policyId: DEFAULT_POLICY_ID, createdAt: at, updatedAt: at },
      { ...input, policyId: created.policyId, createdAt: at, updatedAt: at },
    ]),
  );
  await applySync(
    scope,
    [{ resourceId: "user-1", type: "email", name: "Ada", email: "ada@example.test", status: "active" }],
    at,
  );
  const policy = stored.find((each) => each.policyId === created.policyId)!;
  const [queued] = await tenantDb(scope).runTransaction(async (transaction) =>
    assignPolicy(transaction, scope, policy, ["user-1"], () => at, "admin@example.test", NOW),
  );
  expect(await getPolicy(scope, created.policyId)).toMatchObject({ name: "Hourly mail", resourceCount: 1 });
  expect(await listResources(scope)).toMatchObject([
    { policyId: created.policyId, protected: true, nextBackupAt: at },
  ]);
  expect(await readRun(scope, queued!.runId)).toMatchObject({
    policyId: created.policyId,
    trigger: "policy-assigned",
  });
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when a policy does not decode, then the list leaves it out and reading it fails with its kind and path", async () => {
  const policies = regionDb("region-ch").collection("organizations").doc("org-1").collection("policies");
  await policies
    .doc("broken")
    .set({ name: "Weekly", dataTypes: ["emails"], frequency: 2, schedule: "every-day" });
  expect((await storedPolicies(scope)).map((policy) => policy.policyId)).not.toContain("broken");
  await expect(getPolicy(scope, "broken")).rejects.toMatchObject({
    kind: "policy",
    path: "organizations/org-1/policies/broken",
    fields: ["frequency", "retentionDays"],
  });
  await policies.doc("broken").delete();
});
