/**
 * Backup policies of one organisation: `organizations/{id}/policies/{policyId}` in its region database,
 * the policy fields of its resources (`policyId`, `policyName`, `protected`, `nextBackupAt`) and the
 * pending backup runs an assignment queues (`organizations/{id}/backupRuns/{runId}`). Every change is made
 * in a transaction the service opens with the audit entry that records it (`auditedChange`).
 */
import type { Transaction } from "firebase-admin/firestore";
import {
  DEFAULT_POLICY,
  DEFAULT_POLICY_ID,
  FREQUENCY_PLAN,
  servicesOf,
  type Policy,
  type PolicyInput,
} from "@alpvault/contracts/policies";
import { organizationRef, type Scope } from "../lib/tenancy";
import { bulkWrites } from "../lib/bulk-writes";
import { decodeDocument, decodeQueried, readableDocuments } from "../lib/stored";
import { BACKUP_RUN } from "../backups/catalog/run-documents";
import { POLICY, type StoredPolicy } from "./documents";

export type { Scope, StoredPolicy };

/**
 * Renaming or re-timing a policy rewrites its resources' `policyName`/`nextBackupAt` in the same
 * transaction up to this many resources (well inside a transaction's write limit); beyond it, the policy
 * and its audit entry commit first and the resources follow in batches right after.
 */
export const RESOURCES_IN_TRANSACTION = 400;

/** What the backup dispatcher needs to place a resource's next backup. */
export type NextBackup = (policy: PolicyInput) => string | null;

function policies(scope: Scope) {
  return organizationRef(scope).collection("policies");
}

function resources(scope: Scope) {
  return organizationRef(scope).collection("resources");
}

function backupRuns(scope: Scope) {
  return organizationRef(scope).collection("backupRuns");
}

/** The answer's shape of a stored policy. */
export function toPolicy(stored: StoredPolicy, resourceCount: number): Policy {
  return {
    ...stored,
    isDefault: stored.policyId === DEFAULT_POLICY_ID,
    services: servicesOf(stored.dataTypes),
    plan: FREQUENCY_PLAN[stored.frequency],
    resourceCount,
  };
}

function inputFields(input: PolicyInput): PolicyInput {
  return {
    name: input.name,
    dataTypes: input.dataTypes,
    frequency: input.frequency,
    schedule: input.schedule,
    days: input.days,
    retentionDays: input.retentionDays,
    archiving: input.archiving,
  };
}

/**
 * Creates the default policy when the organisation does not have it yet (organisations set up before
 * policies existed get it too). Idempotent: one transaction reads and creates only if missing. It is part
 * of every organisation's initial state, so it is not an audited change.
 */
export async function ensureDefaultPolicy(scope: Scope, now: Date): Promise<void> {
  const ref = policies(scope).doc(DEFAULT_POLICY_ID);
  await ref.firestore.runTransaction(async (transaction) => {
    if ((await transaction.get(ref)).exists) return;
    const at = now.toISOString();
    transaction.create(ref, { ...inputFields(DEFAULT_POLICY), createdAt: at, updatedAt: at });
  });
}

async function resourceCount(scope: Scope, policyId: string): Promise<number> {
  const snapshot = await resources(scope).where("policyId", "==", policyId).count().get();
  return snapshot.data().count;
}

/**
 * Every policy as stored (the backup dispatcher's timing and retention's rules read them). A policy that
 * does not decode is left out (logged), as if it did not exist: its resources get no scheduled backups and
 * no retention until it is fixed.
 */
export async function storedPolicies(scope: Scope): Promise<StoredPolicy[]> {
  return readableDocuments(POLICY, (await policies(scope).get()).docs);
}

/** Every policy with its resource count: the default policy first, then by name. */
export async function listPolicies(scope: Scope): Promise<Policy[]> {
  const stored = await storedPolicies(scope);
  const counts = await Promise.all(stored.map((policy) => resourceCount(scope, policy.policyId)));
  const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
  return stored
    .map((policy, index) => toPolicy(policy, counts[index] ?? 0))
    .sort(
      (a, b) =>
        Number(b.isDefault) - Number(a.isDefault) ||
        collator.compare(a.name, b.name) ||
        a.policyId.localeCompare(b.policyId),
    );
}

export async function getPolicy(scope: Scope, policyId: string): Promise<Policy | undefined> {
  const stored = decodeDocument(POLICY, await policies(scope).doc(policyId).get());
  return stored ? toPolicy(stored, await resourceCount(scope, policyId)) : undefined;
}

/** The policy as read in `transaction`, when the organisation has it. */
export async function readPolicy(
  transaction: Transaction,
  scope: Scope,
  policyId: string,
): Promise<StoredPolicy | undefined> {
  return decodeDocument(POLICY, await transaction.get(policies(scope).doc(policyId)));
}

/** Creates a policy in `transaction` (the service records "policy created" with it). */
export function createPolicy(
  transaction: Transaction,
  scope: Scope,
  input: PolicyInput,
  actor: string,
  now: Date,
): Policy {
  const ref = policies(scope).doc();
  const at = now.toISOString();
  const stored: StoredPolicy = { ...inputFields(input), policyId: ref.id, createdAt: at, updatedAt: at };
  transaction.create(ref, { ...inputFields(input), createdAt: at, updatedAt: at, createdBy: actor });
  return toPolicy(stored, 0);
}

/** A policy changed in a transaction: what it was called, what it is now, and its resources' new fields. */
export interface PolicyUpdate {
  previousName: string;
  stored: StoredPolicy;
  fields: { policyName: string; nextBackupAt: string | null };
  /** Whether its resources were rewritten in the transaction (else `finishPolicyUpdate` rewrites them). */
  inTransaction: boolean;
}

/**
 * Changes a policy in `transaction`: `change` gets the stored policy and answers the new settings (or
 * throws, which aborts). Its resources get the new name and next backup time: in the transaction up to
 * RESOURCES_IN_TRANSACTION resources, in batches after it beyond that (`finishPolicyUpdate`). Answers
 * undefined for an unknown policy.
 */
export async function updatePolicy(
  transaction: Transaction,
  scope: Scope,
  policyId: string,
  change: (current: StoredPolicy) => PolicyInput,
  nextBackup: NextBackup,
  actor: string,
  now: Date,
): Promise<PolicyUpdate | undefined> {
  const at = now.toISOString();
  const current = await readPolicy(transaction, scope, policyId);
  if (!current) return undefined;
  const next = change(current);
  const assigned = resources(scope).where("policyId", "==", policyId);
  const inUse = await transaction.get(assigned.limit(RESOURCES_IN_TRANSACTION + 1));
  const fields = { policyName: next.name, nextBackupAt: nextBackup(next) };
  const inTransaction = inUse.size <= RESOURCES_IN_TRANSACTION;
  if (inTransaction) for (const doc of inUse.docs) transaction.update(doc.ref, fields);
  transaction.update(policies(scope).doc(policyId), {
    ...inputFields(next),
    updatedAt: at,
    updatedBy: actor,
  });
  return {
    previousName: current.name,
    stored: { ...current, ...inputFields(next), updatedAt: at },
    fields,
    inTransaction,
  };
}

/** After the transaction of `updatePolicy`: the resources it left are rewritten in batches; the answer. */
export async function finishPolicyUpdate(scope: Scope, update: PolicyUpdate): Promise<Policy> {
  const { policyId } = update.stored;
  if (!update.inTransaction) {
    const snapshot = await resources(scope).where("policyId", "==", policyId).get();
    const writer = bulkWrites(policies(scope).firestore);
    for (const doc of snapshot.docs) writer.update(doc.ref, update.fields);
    await writer.close();
  }
  return toPolicy(update.stored, await resourceCount(scope, policyId));
}

export type DeleteOutcome = "deleted" | "not-found" | "default" | "in-use";

/** Deletes a policy no resource uses, in `transaction`; with its name when deleted. */
export async function deletePolicy(
  transaction: Transaction,
  scope: Scope,
  policyId: string,
): Promise<{ outcome: DeleteOutcome; name?: string }> {
  const current = await readPolicy(transaction, scope, policyId);
  if (!current) return { outcome: "not-found" };
  if (policyId === DEFAULT_POLICY_ID) return { outcome: "default" };
  const inUse = await transaction.get(resources(scope).where("policyId", "==", policyId).limit(1));
  if (!inUse.empty) return { outcome: "in-use" };
  transaction.delete(policies(scope).doc(policyId));
  return { outcome: "deleted", name: current.name };
}

export type AssignOutcome =
  | {
      kind: "assigned";
      policyName: string;
      assigned: number;
      backupsQueued: number;
      /** The pending run of each resource (new, or the one it had already). */
      runs: { runId: string; resourceId: string }[];
    }
  | { kind: "policy-not-found" }
  | { kind: "resources-not-found" };

/**
 * Assigns `policy` to resources known to exist, in `transaction`: each resource gets the policy, becomes
 * protected and gets its next scheduled backup; each gets one pending backup run
 * (docs/requirements.md#states-and-flows: assigning a policy starts a backup) — a resource that already
 * has an active (pending or running) run keeps that one, now for this policy, so assigning twice never
 * queues two. Answers the pending run of each resource.
 */
export async function assignPolicy(
  transaction: Transaction,
  scope: Scope,
  policy: StoredPolicy,
  resourceIds: readonly string[],
  nextBackup: NextBackup,
  actor: string,
  now: Date,
): Promise<{ runId: string; resourceId: string }[]> {
  const at = now.toISOString();
  const { policyId } = policy;
  const pending = await transaction.get(backupRuns(scope).where("state", "in", ["pending", "running"]));
  const pendingByResource = new Map(
    pending.docs.map((doc) => [decodeQueried(BACKUP_RUN, doc).resourceId, doc.ref]),
  );
  const nextBackupAt = nextBackup(policy);
  const runs: { runId: string; resourceId: string }[] = [];
  for (const resourceId of resourceIds) {
    transaction.update(resources(scope).doc(resourceId), {
      policyId,
      policyName: policy.name,
      protected: true,
      nextBackupAt,
      policyAssignedAt: at,
    });
    const run = { policyId, requestedAt: at, requestedBy: actor };
    const existing = pendingByResource.get(resourceId);
    if (existing) {
      transaction.update(existing, run);
      runs.push({ runId: existing.id, resourceId });
    } else {
      const ref = backupRuns(scope).doc();
      runs.push({ runId: ref.id, resourceId });
      transaction.create(ref, { resourceId, ...run, trigger: "policy-assigned", state: "pending" });
    }
  }
  return runs;
}
