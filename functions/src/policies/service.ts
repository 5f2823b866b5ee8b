/**
 * Backup policies: the rules. Validation with the shared schema (docs/requirements.md#validation texts), the plan rules of #who-may-do-what
 * (the free plan cannot create, edit or delete policies; 3 per day needs Geneva, 24 Zürich), the default
 * policy every organisation has, the delete conflict of docs/requirements.md#errors-and-messages, and assignment to resources, which queues
 * a backup of each (docs/requirements.md#states-and-flows).
 */
import { ValidationError } from "yup";
import {
  DEFAULT_POLICY_ID,
  MAX_ASSIGN_RESOURCES,
  POLICY_MESSAGES,
  policyPlanDenial,
  type AssignPolicyResponse,
  type PoliciesResponse,
  type Policy,
  type PolicyInput,
} from "@alpvault/contracts/policies";
import { validatePolicy } from "@alpvault/contracts/policy-request";
import { isId } from "@alpvault/contracts/ids";
import { FREE_PLAN, type PlanId } from "@alpvault/contracts/plans";
import type { AuditOperation } from "@alpvault/contracts/audit";
import { appendAudit, auditedChange } from "../audit/service";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import { resourcesIn } from "../resources/in-transaction";
import * as repo from "./repo";
import { nextBackupAt } from "./schedule";

/** The organisation as the policy rules see it (`requireAdmin` answers it). */
export interface PolicyScope extends Scope {
  planId: PlanId;
}

const POLICY_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The schema's first failing text as a 400; anything else passes through. */
function validated(value: unknown): PolicyInput {
  try {
    return validatePolicy(value);
  } catch (error) {
    if (error instanceof ValidationError) throw DomainError.invalid(error.errors[0] ?? error.message);
    throw error;
  }
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw DomainError.invalid(POLICY_MESSAGES.invalidBody);
  }
  return body as Record<string, unknown>;
}

function checkPolicyId(policyId: string): void {
  if (!POLICY_ID.test(policyId)) throw DomainError.notFound(POLICY_MESSAGES.notFound);
}

function nextBackup(now: Date): repo.NextBackup {
  return (policy) => nextBackupAt(policy, now)?.toISOString() ?? null;
}

/**
 * Refuses what the plan does not allow with a 403 and the rule's text, after leaving a failed entry in the
 * audit log (the refused attempt changes nothing else).
 */
async function refuse(
  scope: PolicyScope,
  operation: AuditOperation,
  actor: string,
  object: string,
  message: string,
): Promise<never> {
  await appendAudit(scope, { operation, actor, object, failureReason: message });
  throw DomainError.forbidden(message);
}

async function requireManagingPlan(
  scope: PolicyScope,
  operation: AuditOperation,
  actor: string,
  object: string,
): Promise<void> {
  if (scope.planId === FREE_PLAN) await refuse(scope, operation, actor, object, POLICY_MESSAGES.freePlan);
}

export async function listPolicies(scope: PolicyScope, now = new Date()): Promise<PoliciesResponse> {
  await repo.ensureDefaultPolicy(scope, now);
  return { policies: await repo.listPolicies(scope), planId: scope.planId };
}

export async function getPolicy(scope: PolicyScope, policyId: string, now = new Date()): Promise<Policy> {
  checkPolicyId(policyId);
  if (policyId === DEFAULT_POLICY_ID) await repo.ensureDefaultPolicy(scope, now);
  const policy = await repo.getPolicy(scope, policyId);
  if (!policy) throw DomainError.notFound(POLICY_MESSAGES.notFound);
  return policy;
}

export async function createPolicy(
  scope: PolicyScope,
  body: unknown,
  actor: string,
  now = new Date(),
): Promise<Policy> {
  const fields = bodyObject(body);
  const name = typeof fields.name === "string" ? fields.name.trim() : "";
  await requireManagingPlan(scope, "policy.created", actor, name);
  const input = validated(fields);
  const denial = policyPlanDenial(scope.planId, input);
  if (denial) await refuse(scope, "policy.created", actor, input.name, denial);
  return auditedChange(scope, async (transaction, audit) => {
    const policy = repo.createPolicy(transaction, scope, input, actor, now);
    audit({ operation: "policy.created", actor, object: input.name, date: now });
    return policy;
  });
}

function settingsOf(policy: PolicyInput): PolicyInput {
  const { name, dataTypes, frequency, schedule, days, retentionDays, archiving } = policy;
  return { name, dataTypes, frequency, schedule, days, retentionDays, archiving };
}

/** PATCH: any part of the policy; the result is validated whole and must fit the plan. */
export async function updatePolicy(
  scope: PolicyScope,
  policyId: string,
  body: unknown,
  actor: string,
  now = new Date(),
): Promise<Policy> {
  checkPolicyId(policyId);
  const fields = bodyObject(body);
  if (policyId === DEFAULT_POLICY_ID) await repo.ensureDefaultPolicy(scope, now);
  const existing = await repo.getPolicy(scope, policyId);
  if (!existing) throw DomainError.notFound(POLICY_MESSAGES.notFound);
  await requireManagingPlan(scope, "policy.updated", actor, existing.name);
  const merged = (current: PolicyInput) => validated({ ...settingsOf(current), ...fields });
  const denial = policyPlanDenial(scope.planId, merged(existing));
  if (denial) await refuse(scope, "policy.updated", actor, existing.name, denial);
  const change = (current: PolicyInput) => {
    // Checked again on what the transaction read (another admin may have changed it meanwhile).
    const next = merged(current);
    const refused = policyPlanDenial(scope.planId, next);
    if (refused) throw DomainError.forbidden(refused);
    return next;
  };
  const updated = await auditedChange(scope, async (transaction, audit) => {
    const update = await repo.updatePolicy(transaction, scope, policyId, change, nextBackup(now), actor, now);
    if (update) {
      const { previousName, stored } = update;
      const object = previousName === stored.name ? stored.name : `${previousName} → ${stored.name}`;
      audit({ operation: "policy.updated", actor, object, date: now });
    }
    return update;
  });
  if (!updated) throw DomainError.notFound(POLICY_MESSAGES.notFound);
  return repo.finishPolicyUpdate(scope, updated);
}

export async function deletePolicy(
  scope: PolicyScope,
  policyId: string,
  actor: string,
  now = new Date(),
): Promise<{ policyId: string }> {
  checkPolicyId(policyId);
  const existing = await repo.getPolicy(scope, policyId);
  if (!existing && policyId !== DEFAULT_POLICY_ID) throw DomainError.notFound(POLICY_MESSAGES.notFound);
  await requireManagingPlan(scope, "policy.deleted", actor, existing?.name ?? policyId);
  const outcome = await auditedChange(scope, async (transaction, audit) => {
    const { outcome: deleted, name } = await repo.deletePolicy(transaction, scope, policyId);
    if (deleted === "deleted") audit({ operation: "policy.deleted", actor, object: name ?? "", date: now });
    return deleted;
  });
  switch (outcome) {
    case "deleted":
      return { policyId };
    case "not-found":
      // The default policy not created yet, or another admin deleted it just now.
      if (policyId === DEFAULT_POLICY_ID) throw DomainError.conflict(POLICY_MESSAGES.defaultUndeletable);
      throw DomainError.notFound(POLICY_MESSAGES.notFound);
    case "default":
      throw DomainError.conflict(POLICY_MESSAGES.defaultUndeletable);
    case "in-use":
      throw DomainError.conflict(POLICY_MESSAGES.inUse);
  }
}

/** Every policy as stored (the backup dispatcher's timing and retention's rules read them). */
export function storedPolicies(scope: Scope): Promise<repo.StoredPolicy[]> {
  return repo.storedPolicies(scope);
}

/** Creates the default policy if it is not stored yet (it is made lazily, a resource may name it first). */
export function ensureDefaultPolicy(scope: Scope, now: Date): Promise<void> {
  return repo.ensureDefaultPolicy(scope, now);
}

/**
 * The policy a backup runs under, if it exists (the default one created first: a resource may name it
 * before anyone listed the policies).
 */
export async function backupPolicy(scope: Scope, policyId: string, now: Date): Promise<Policy | undefined> {
  if (policyId === DEFAULT_POLICY_ID) await repo.ensureDefaultPolicy(scope, now);
  return repo.getPolicy(scope, policyId);
}

/** Reads `{resourceIds}`: 1 to MAX_ASSIGN_RESOURCES ids, each given once. */
export function parseAssignRequest(body: unknown): string[] {
  const ids =
    typeof body === "object" && body !== null ? (body as { resourceIds?: unknown }).resourceIds : undefined;
  if (!Array.isArray(ids) || ids.length === 0) throw DomainError.invalid(POLICY_MESSAGES.resourceIdsRequired);
  if (!ids.every(isId)) {
    throw DomainError.invalid(POLICY_MESSAGES.resourcesNotFound);
  }
  const unique = [...new Set(ids)];
  if (unique.length > MAX_ASSIGN_RESOURCES) throw DomainError.invalid(POLICY_MESSAGES.tooManyResources);
  return unique;
}

/** Queues the backup of a run the assignment created (the backups module's `dispatchRun`). */
export type QueueBackup = (scope: Scope, run: { runId: string; resourceId: string }) => Promise<unknown>;

/**
 * Assigns a policy to resources in one transaction with the audit entry ("assigned to N resources"): the
 * policy, then the resources (all must exist), then each resource's pending backup run (`repo.assignPolicy`).
 */
function assignInTransaction(
  scope: Scope,
  policyId: string,
  resourceIds: readonly string[],
  next: repo.NextBackup,
  actor: string,
  now: Date,
): Promise<repo.AssignOutcome> {
  return auditedChange(scope, async (transaction, audit): Promise<repo.AssignOutcome> => {
    const policy = await repo.readPolicy(transaction, scope, policyId);
    if (!policy) return { kind: "policy-not-found" };
    const found = await resourcesIn(transaction, scope, resourceIds);
    if (found.length !== resourceIds.length) return { kind: "resources-not-found" };
    const runs = await repo.assignPolicy(transaction, scope, policy, found, next, actor, now);
    const count = found.length;
    audit({
      operation: "resources.policy-updated",
      actor,
      object: `${policy.name} assigned to ${count} resource${count === 1 ? "" : "s"}`,
      date: now,
    });
    return { kind: "assigned", policyName: policy.name, assigned: count, backupsQueued: count, runs };
  });
}

/**
 * Assigns an existing policy to resources (every plan may: the free plan uses the default policy). Each
 * gets a pending backup run, queued through `queueBackup`; unknown resources refuse the whole call with a
 * 404 naming none of them.
 */
export async function assignPolicy(
  scope: PolicyScope,
  policyId: string,
  body: unknown,
  actor: string,
  queueBackup: QueueBackup,
  now = new Date(),
): Promise<AssignPolicyResponse> {
  checkPolicyId(policyId);
  const resourceIds = parseAssignRequest(body);
  if (policyId === DEFAULT_POLICY_ID) await repo.ensureDefaultPolicy(scope, now);
  const outcome = await assignInTransaction(scope, policyId, resourceIds, nextBackup(now), actor, now);
  if (outcome.kind === "policy-not-found") throw DomainError.notFound(POLICY_MESSAGES.notFound);
  if (outcome.kind === "resources-not-found") throw DomainError.notFound(POLICY_MESSAGES.resourcesNotFound);
  // docs/requirements.md#states-and-flows: assigning a policy starts a backup. A task that cannot be enqueued now is enqueued by the
  // dispatcher (the run stays pending).
  await Promise.all(outcome.runs.map((run) => queueBackup(scope, run)));
  return { policyId, assigned: outcome.assigned, backupsQueued: outcome.backupsQueued };
}
