/**
 * Starting and reading recoveries (docs/requirements.md#screens-and-navigation recovery modal, #validation, #errors-and-messages). The request is checked with the
 * recovery modal's rules and texts; the source and target resources must exist (mail goes to a mailbox);
 * one recovery per target resource at a time (409 with the required text). The recovery is written, then its
 * task enqueued; should the enqueue fail, the answer says so and the recovery is marked failed, so the
 * target is not left locked.
 */
import { itemKindOf, SERVICES } from "@alpvault/contracts/services";
import { ValidationError } from "yup";
import { ACTIVITY_MESSAGES } from "@alpvault/contracts/activity";
import type { RecoveryEstimate } from "@alpvault/contracts/eta";
import {
  RECOVERY_FAILURE_TEXTS,
  RECOVERY_ITEM_REASONS,
  RECOVERY_MESSAGES,
  type Recovery,
  type RecoveryList,
  type RecoveryProgress,
} from "@alpvault/contracts/recovery";
import { searchDateEnd } from "@alpvault/contracts/search";
import { recoveryRequestSchema, type RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { enqueueRecovery, type EnqueueRecovery } from "./queue";
import { paceShown, quotaOutlook, restoreEta, roundRate } from "../backups/eta";
import { measuredImports } from "./pace";
import { activeBackupResources, chosenTotals, readBackupResource } from "../backups/service";
import { DomainError } from "../lib/errors";
import { csvField } from "../lib/csv";
import { typeMismatch } from "../lib/json-types";
import type { Scope } from "../lib/tenancy";
import { optionalIdParam } from "../lib/query-params";
import {
  activeRecoveries,
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
  return { recoveries: stored.map((recovery) => toRecovery(recovery)) };
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

/** What the API shows of a stored recovery; `pace` while it runs. */
export function toRecovery(
  stored: StoredRecovery,
  pace: Pick<RecoveryProgress, "itemsPerMinute" | "etaSeconds" | "limit"> = NO_PACE,
): Recovery {
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
    progress: { ...stored.progress, ...pace },
    failureReason: stored.failureReason,
    problems: stored.problems ?? [],
  };
}

const NO_PACE = { itemsPerMinute: null, etaSeconds: null, limit: null } as const;

/** The request checked, its source and target resources found (404 otherwise), and what it would take. */
async function plan(scope: Scope, body: unknown) {
  const request = parseRequest(body);
  const targetResourceId =
    request.location === "other" ? (request.targetResourceId ?? "") : request.resourceId;
  const [source, target] = await Promise.all([
    readBackupResource(scope, request.resourceId),
    readBackupResource(scope, targetResourceId),
  ]);
  if (!source || !target) throw DomainError.notFound(RECOVERY_MESSAGES.resourceNotFound);
  if (SERVICES[request.service].needsMailbox && !target.email)
    throw DomainError.invalid(RECOVERY_MESSAGES.targetRequired);
  const asOf = request.date ? (searchDateEnd(request.date) ?? null) : null;
  const totals = await chosenTotals(scope, {
    resourceId: request.resourceId,
    kind: itemKindOf(request.service),
    itemIds: request.itemIds ?? null,
    asOf,
  });
  return { request, targetResourceId, totals };
}

export async function startRecovery(
  scope: Scope,
  body: unknown,
  actor: string,
  now = new Date(),
  enqueue: EnqueueRecovery = enqueueRecovery,
): Promise<Recovery> {
  const { request, targetResourceId, totals } = await plan(scope, body);
  const created = await createRecovery(scope, { ...request, targetResourceId }, actor, now, totals);
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

export async function getRecovery(scope: Scope, recoveryId: string, now = new Date()): Promise<Recovery> {
  const stored = await readRecovery(scope, recoveryId);
  if (!stored) throw DomainError.notFound(RECOVERY_MESSAGES.recoveryNotFound);
  if (stored.state !== "running") return toRecovery(stored);
  const { progress, position } = stored;
  const settled = progress.restored + progress.skipped + progress.failed;
  const measured = measuredImports(progress, position.bytes, stored.startedAt, now);
  const eta = restoreEta({
    work: SERVICES[stored.service].work.restore,
    left: {
      items: Math.max(0, progress.total - settled),
      bytes: Math.max(0, progress.totalBytes - position.bytes),
    },
    ...(measured ? { measured } : {}),
    runs: await runsNow(scope, stored.targetResourceId, false),
    outlook: quotaOutlook(),
  });
  return toRecovery(stored, {
    itemsPerMinute: roundRate(paceShown(eta)),
    etaSeconds: eta.seconds,
    limit: eta.limit,
  });
}

/**
 * The runs a recovery into `target` shares Google's limits with now: a backup of the target (the same
 * user's quota), and every running backup and recovery of the organisation (the project's); `adding`: the
 * recovery is not running yet (an estimate), so it counts itself.
 */
async function runsNow(scope: Scope, target: string, adding: boolean) {
  const [backups, recoveries] = await Promise.all([activeBackupResources(scope), activeRecoveries(scope)]);
  const restores = recoveries.filter((recovery) => recovery.state === "running").length + (adding ? 1 : 0);
  return {
    user: 1 + backups.filter((resourceId) => resourceId === target).length,
    project: Math.max(1, backups.length + restores),
    restores: Math.max(1, restores),
  };
}

/**
 * POST …/recoveries/estimate: what the recovery this body asks for would restore (the same request rules
 * and texts, the same choice of items at the same date) and about how long it would take at the limits it
 * would share with the runs going on now. Nothing is started or recorded.
 */
export async function estimateRecovery(scope: Scope, body: unknown): Promise<RecoveryEstimate> {
  const { request, targetResourceId, totals } = await plan(scope, body);
  // Files Google offered no export of are kept without content: a recovery skips them.
  const left = { items: totals.items - totals.contentless, bytes: totals.bytes };
  const eta = restoreEta({
    work: SERVICES[request.service].work.restore,
    left,
    runs: await runsNow(scope, targetResourceId, true),
    outlook: quotaOutlook(),
  });
  return { ...left, seconds: eta.seconds, limit: eta.limit };
}

/** The resources recoveries are restoring into now (the resources list's backups share limits with them). */
export async function recoveryTargets(scope: Scope): Promise<string[]> {
  return (await activeRecoveries(scope))
    .filter((recovery) => recovery.state === "running")
    .map((recovery) => recovery.targetResourceId);
}

export const REPORT_HEADER = "item,name,outcome,reason";

/**
 * The recovery's report: one CSV line per item it settled (restored, skipped or failed, and why; a restored
 * file names the sharing Google refused to re-apply), read
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
      const reason =
        entry.reason ??
        (entry.unshared
          ? RECOVERY_ITEM_REASONS.sharingNotReapplied(entry.unshared)
          : entry.notes
            ? RECOVERY_ITEM_REASONS.restoredWithNotes(entry.notes)
            : "");
      const fields = [entry.itemKey, entry.name ?? "", outcome, reason];
      yield `${fields.map(csvField).join(",")}\r\n`;
    }
  })();
}
