/**
 * Backup policies of one organisation: `organizations/{id}/policies/{policyId}` in its region database,
 * the policy fields of its resources (`policyId`, `policyName`, `protected`, `nextBackupAt`) and the
 * pending backup runs an assignment queues (`organizations/{id}/backupRuns/{runId}`). Every change is one
 * transaction with the audit entry that records it.
 */
import type { DocumentReference, Transaction } from "firebase-admin/firestore";
import {
  DATA_TYPES,
  DEFAULT_POLICY,
  DEFAULT_POLICY_ID,
  FREQUENCIES,
  FREQUENCY_PLAN,
  SCHEDULES,
  WEEKDAYS,
  servicesOf,
  type DataType,
  type Frequency,
  type Policy,
  type PolicyInput,
  type Schedule,
  type Weekday,
} from "@alpvault/contracts/policies";
import { auditedTransaction, recordAudit } from "../audit/repo";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeResource } from "../resources/repo";

export type { Scope };

/**
 * Renaming or re-timing a policy rewrites its resources' `policyName`/`nextBackupAt` in the same
 * transaction up to this many resources (well inside a transaction's write limit); beyond it, the policy
 * and its audit entry commit first and the resources follow in batches right after.
 */
export const RESOURCES_IN_TRANSACTION = 400;

/** A policy as stored (the answer's derived fields are computed on read). */
export interface StoredPolicy extends PolicyInput {
  policyId: string;
  createdAt: string;
  updatedAt: string;
}

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

function oneOf<T>(allowed: readonly T[], value: unknown): value is T {
  return (allowed as readonly unknown[]).includes(value);
}

/** Decodes a stored policy; a document without the shape we write is not a policy. */
export function decodePolicy(id: string, data: unknown): StoredPolicy | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const value = data as Record<string, unknown>;
  if (
    typeof value.name !== "string" ||
    !Array.isArray(value.dataTypes) ||
    !oneOf(FREQUENCIES, value.frequency) ||
    !oneOf(SCHEDULES, value.schedule) ||
    typeof value.retentionDays !== "number"
  ) {
    return undefined;
  }
  const days = Array.isArray(value.days) ? value.days : [];
  return {
    policyId: id,
    name: value.name,
    dataTypes: DATA_TYPES.filter((type) => (value.dataTypes as unknown[]).includes(type)) as DataType[],
    frequency: value.frequency as Frequency,
    schedule: value.schedule as Schedule,
    days: WEEKDAYS.filter((day) => days.includes(day)) as Weekday[],
    retentionDays: value.retentionDays,
    archiving: value.archiving === true,
    createdAt: typeof value.createdAt === "string" ? value.createdAt : "",
    updatedAt: typeof value.updatedAt === "string" ? value.updatedAt : "",
  };
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

/** Every policy as stored (the backup dispatcher's timing and retention's rules read them). */
export async function storedPolicies(scope: Scope): Promise<StoredPolicy[]> {
  const snapshot = await policies(scope).get();
  return snapshot.docs.flatMap((doc) => decodePolicy(doc.id, doc.data()) ?? []);
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
  const snapshot = await policies(scope).doc(policyId).get();
  const stored = snapshot.exists ? decodePolicy(snapshot.id, snapshot.data()) : undefined;
  return stored ? toPolicy(stored, await resourceCount(scope, policyId)) : undefined;
}

async function readPolicy(
  transaction: Transaction,
  scope: Scope,
  policyId: string,
): Promise<StoredPolicy | undefined> {
  const snapshot = await transaction.get(policies(scope).doc(policyId));
  return snapshot.exists ? decodePolicy(snapshot.id, snapshot.data()) : undefined;
}

/** Creates a policy and records "policy created" in the same transaction. */
export async function createPolicy(
  scope: Scope,
  input: PolicyInput,
  actor: string,
  now: Date,
): Promise<Policy> {
  const ref = policies(scope).doc();
  const at = now.toISOString();
  const stored: StoredPolicy = { ...inputFields(input), policyId: ref.id, createdAt: at, updatedAt: at };
  await auditedTransaction(scope, async (transaction) => {
    transaction.create(ref, { ...inputFields(input), createdAt: at, updatedAt: at, createdBy: actor });
    recordAudit(transaction, scope, { operation: "policy.created", actor, object: input.name, date: now });
  });
  return toPolicy(stored, 0);
}

/**
 * Changes a policy: `change` gets the stored policy and answers the new settings (or throws, which
 * aborts). Its resources get the new name and next backup time: in the transaction up to
 * RESOURCES_IN_TRANSACTION resources, in batches after it beyond that. Answers undefined for an unknown
 * policy.
 */
export async function updatePolicy(
  scope: Scope,
  policyId: string,
  change: (current: StoredPolicy) => PolicyInput,
  nextBackup: NextBackup,
  actor: string,
  now: Date,
): Promise<Policy | undefined> {
  const ref = policies(scope).doc(policyId);
  const assigned = resources(scope).where("policyId", "==", policyId);
  const at = now.toISOString();
  const outcome = await auditedTransaction(scope, async (transaction) => {
    const current = await readPolicy(transaction, scope, policyId);
    if (!current) return undefined;
    const next = change(current);
    const inUse = await transaction.get(assigned.limit(RESOURCES_IN_TRANSACTION + 1));
    const fields = { policyName: next.name, nextBackupAt: nextBackup(next) };
    const inTransaction = inUse.size <= RESOURCES_IN_TRANSACTION;
    if (inTransaction) for (const doc of inUse.docs) transaction.update(doc.ref, fields);
    transaction.update(ref, { ...inputFields(next), updatedAt: at, updatedBy: actor });
    recordAudit(transaction, scope, {
      operation: "policy.updated",
      actor,
      object: current.name === next.name ? next.name : `${current.name} → ${next.name}`,
      date: now,
    });
    return { stored: { ...current, ...inputFields(next), updatedAt: at }, fields, inTransaction };
  });
  if (!outcome) return undefined;
  if (!outcome.inTransaction) {
    const snapshot = await assigned.get();
    const writer = ref.firestore.bulkWriter();
    for (const doc of snapshot.docs) void writer.update(doc.ref, outcome.fields);
    await writer.close();
  }
  return toPolicy(outcome.stored, await resourceCount(scope, policyId));
}

export type DeleteOutcome = "deleted" | "not-found" | "default" | "in-use";

/** Deletes a policy no resource uses, recording "policy deleted" in the same transaction. */
export async function deletePolicy(
  scope: Scope,
  policyId: string,
  actor: string,
  now: Date,
): Promise<DeleteOutcome> {
  const ref = policies(scope).doc(policyId);
  return auditedTransaction(scope, async (transaction): Promise<DeleteOutcome> => {
    const current = await readPolicy(transaction, scope, policyId);
    if (!current) return "not-found";
    if (policyId === DEFAULT_POLICY_ID) return "default";
    const inUse = await transaction.get(resources(scope).where("policyId", "==", policyId).limit(1));
    if (!inUse.empty) return "in-use";
    transaction.delete(ref);
    recordAudit(transaction, scope, { operation: "policy.deleted", actor, object: current.name, date: now });
    return "deleted";
  });
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
 * Assigns a policy to resources, in one transaction with the audit entry: each resource gets the policy,
 * becomes protected and gets its next scheduled backup; each gets one pending backup run (docs/requirements.md#states-and-flows:
 * assigning a policy starts a backup) — a resource that already has an active (pending or running) run
 * keeps that one, now for this policy, so assigning twice never queues two.
 */
export async function assignPolicy(
  scope: Scope,
  policyId: string,
  resourceIds: readonly string[],
  nextBackup: NextBackup,
  actor: string,
  now: Date,
): Promise<AssignOutcome> {
  const at = now.toISOString();
  return auditedTransaction(scope, async (transaction): Promise<AssignOutcome> => {
    const policy = await readPolicy(transaction, scope, policyId);
    if (!policy) return { kind: "policy-not-found" };
    const refs: DocumentReference[] = resourceIds.map((id) => resources(scope).doc(id));
    const snapshots = await transaction.getAll(...refs);
    const found = snapshots.flatMap((snapshot) =>
      snapshot.exists && decodeResource(snapshot.id, snapshot.data()) ? [snapshot] : [],
    );
    if (found.length !== resourceIds.length) return { kind: "resources-not-found" };
    const pending = await transaction.get(backupRuns(scope).where("state", "in", ["pending", "running"]));
    const pendingByResource = new Map(pending.docs.map((doc) => [doc.get("resourceId") as unknown, doc.ref]));
    const nextBackupAt = nextBackup(policy);
    const runs: { runId: string; resourceId: string }[] = [];
    for (const snapshot of found) {
      transaction.update(snapshot.ref, {
        policyId,
        policyName: policy.name,
        protected: true,
        nextBackupAt,
        policyAssignedAt: at,
      });
      const run = { policyId, requestedAt: at, requestedBy: actor };
      const existing = pendingByResource.get(snapshot.id);
      if (existing) {
        transaction.update(existing, run);
        runs.push({ runId: existing.id, resourceId: snapshot.id });
      } else {
        const ref = backupRuns(scope).doc();
        runs.push({ runId: ref.id, resourceId: snapshot.id });
        transaction.create(ref, {
          resourceId: snapshot.id,
          ...run,
          trigger: "policy-assigned",
          state: "pending",
        });
      }
    }
    const count = found.length;
    recordAudit(transaction, scope, {
      operation: "resources.policy-updated",
      actor,
      object: `${policy.name} assigned to ${count} resource${count === 1 ? "" : "s"}`,
      date: now,
    });
    return { kind: "assigned", policyName: policy.name, assigned: count, backupsQueued: count, runs };
  });
}
