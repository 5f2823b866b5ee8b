/**
 * Starting and reading recoveries (docs/requirements.md#screens-and-navigation recovery modal, #validation, #errors-and-messages). The request is checked with the
 * recovery modal's rules and texts; the source and target resources must exist (mail goes to a mailbox);
 * one recovery per target resource at a time (409 with the required text). The recovery is written, then its
 * task enqueued; should the enqueue fail, the answer says so and the recovery is marked failed, so the
 * target is not left locked.
 */
import { ValidationError } from "yup";
import { ACTIVITY_MESSAGES } from "@alpvault/contracts/activity";
import {
  RECOVERY_FAILURE_TEXTS,
  RECOVERY_MESSAGES,
  type Recovery,
  type RecoveryList,
} from "@alpvault/contracts/recovery";
import { recoveryRequestSchema, type RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { enqueueRecovery, type EnqueueRecovery } from "../backups/queue";
import { readBackupResource } from "../backups/service";
import { DomainError } from "../lib/errors";
import { csvField } from "../lib/csv";
import { typeMismatch } from "../lib/json-types";
import type { Scope } from "../lib/tenancy";
import { optionalIdParam } from "../lib/query-params";
import {
  createRecovery,
  finishRecovery,
  ledgerEntries,
  readRecovery,
  recoveriesOfResource,
  type StoredRecovery,
} from "./repo";

/** How many recoveries of a resource its page lists. */
const RESOURCE_RECOVERIES = 10;

/** GET …/recoveries?resourceId=: the resource's newest recoveries, from it or to it. */
export async function listRecoveries(scope: Scope, query: Record<string, unknown>): Promise<RecoveryList> {
  const resourceId = optionalIdParam(query, "resourceId", ACTIVITY_MESSAGES.invalidResourceId);
  if (!resourceId) throw DomainError.invalid(ACTIVITY_MESSAGES.invalidResourceId);
  const stored = await recoveriesOfResource(scope, resourceId, RESOURCE_RECOVERIES);
  return { recoveries: stored.map(toRecovery) };
}

function parseRequest(body: unknown): RecoveryRequest {
  const mismatch = typeMismatch(recoveryRequestSchema, body);
  if (mismatch) throw DomainError.invalid(mismatch);
  try {
    return recoveryRequestSchema.validateSync(body, { abortEarly: true, stripUnknown: false });
  } catch (error) {
    if (error instanceof ValidationError)
      throw DomainError.invalid(error.errors[0] ?? RECOVERY_MESSAGES.failed);
    throw error;
  }
}

/** What the API shows of a stored recovery. */
export function toRecovery(stored: StoredRecovery): Recovery {
  return {
    recoveryId: stored.recoveryId,
    state: stored.state,
    service: stored.service,
    resourceId: stored.resourceId,
    targetResourceId: stored.targetResourceId,
    method: stored.method,
    folderName: stored.folderName,
    asOf: stored.asOf ?? null,
    requestedAt: stored.requestedAt,
    finishedAt: stored.finishedAt,
    progress: stored.progress,
    failureReason: stored.failureReason,
    problems: stored.problems ?? [],
  };
}

export async function startRecovery(
  scope: Scope,
  body: unknown,
  actor: string,
  now = new Date(),
  enqueue: EnqueueRecovery = enqueueRecovery,
): Promise<Recovery> {
  const request = parseRequest(body);
  const targetResourceId =
    request.location === "other" ? (request.targetResourceId ?? "") : request.resourceId;
  const [source, target] = await Promise.all([
    readBackupResource(scope, request.resourceId),
    readBackupResource(scope, targetResourceId),
  ]);
  if (!source || !target) throw DomainError.notFound(RECOVERY_MESSAGES.resourceNotFound);
  if (request.service === "gmail" && !target.email)
    throw DomainError.invalid(RECOVERY_MESSAGES.targetRequired);
  const created = await createRecovery(scope, { ...request, targetResourceId }, actor, now);
  if (created.kind === "busy") throw DomainError.conflict(RECOVERY_MESSAGES.inProgress);
  try {
    await enqueue(
      scope.regionId,
      { organizationId: scope.organizationId, recoveryId: created.recovery.recoveryId },
      { id: created.recovery.recoveryId },
    );
  } catch (error) {
    await finishRecovery(
      scope,
      created.recovery,
      { state: "failed", failureReason: RECOVERY_FAILURE_TEXTS.notQueued },
      now,
    );
    throw DomainError.unavailable(RECOVERY_MESSAGES.failed, error);
  }
  return toRecovery(created.recovery);
}

export async function getRecovery(scope: Scope, recoveryId: string): Promise<Recovery> {
  const stored = await readRecovery(scope, recoveryId);
  if (!stored) throw DomainError.notFound(RECOVERY_MESSAGES.recoveryNotFound);
  return toRecovery(stored);
}

export const REPORT_HEADER = "item,name,outcome,reason";

/**
 * The recovery's report: one CSV line per item it settled (restored, skipped or failed, and why), read
 * page by page from its ledger. An item still being restored shows as "in progress".
 */
export async function recoveryReport(scope: Scope, recoveryId: string): Promise<AsyncIterable<string>> {
  const stored = await readRecovery(scope, recoveryId);
  if (!stored) throw DomainError.notFound(RECOVERY_MESSAGES.recoveryNotFound);
  return (async function* () {
    yield `${REPORT_HEADER}\r\n`;
    for await (const entry of ledgerEntries(scope, recoveryId)) {
      const outcome =
        entry.state === "done"
          ? entry.reason
            ? "skipped"
            : "restored"
          : entry.state === "importing"
            ? "in progress"
            : entry.state;
      const fields = [entry.itemKey, entry.name ?? "", outcome, entry.reason ?? ""];
      yield `${fields.map(csvField).join(",")}\r\n`;
    }
  })();
}
