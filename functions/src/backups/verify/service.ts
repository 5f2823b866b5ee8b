/**
 * Integrity verification as the product starts it (docs/backup-engine.md, "Integrity verification"): the
 * dispatcher's daily run per organisation (`planDay` picks the day's resources), "verify now" through the
 * API (one resource or all), runs nobody works on enqueued again, and the report the API answers.
 * One run at a time per organisation (`requestVerifyRun`).
 */
import {
  INTEGRITY_MESSAGES,
  type IntegrityReport,
  type ResourceIntegrityView,
  type VerifyRun,
} from "@alpvault/contracts/integrity";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { isId } from "@alpvault/contracts/ids";
import { DomainError } from "../../lib/errors";
import type { Scope } from "../../lib/tenancy";
import * as logs from "../../logs";
import type { Organization } from "../../organizations/service";
import { enqueueVerify, type EnqueueVerify } from "../queue";
import { planDay } from "../../engine/verify/plan";
import { readVerifyResource, trackResources, verifyResources } from "./repo";
import { dailyVerification } from "./schedule";
import {
  lastScheduledVerify,
  publicRun,
  recentVerifyRuns,
  requestVerifyRun,
  strandedVerifyRuns,
} from "./runs-repo";

/** A run no worker touched for this long (a lost task, or waiting for the GC lock) is enqueued again. */
export const VERIFY_REDISPATCH_MS = 10 * 60_000;
/** Runs the report lists. */
const RECENT_RUNS = 10;

/** Enqueues a run's task; a failed enqueue leaves the run to the dispatcher's redelivery. */
async function dispatchVerifyRun(
  scope: Scope,
  runId: string,
  enqueue: EnqueueVerify,
  taskId: string = runId,
): Promise<boolean> {
  try {
    await enqueue(scope.regionId, { organizationId: scope.organizationId, runId }, { id: taskId });
    return true;
  } catch (error) {
    logs.backupDispatchFailed({ organizationId: scope.organizationId, error });
    return false;
  }
}

/** Reads and checks the body of POST …/integrity/verify: `{}` or `{resourceId}`. */
function parseVerifyRequest(body: unknown): { resourceId?: string } {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body))
    throw DomainError.invalid(INTEGRITY_MESSAGES.invalidBody);
  const fields = body as Record<string, unknown>;
  if (Object.keys(fields).some((key) => key !== "resourceId")) {
    throw DomainError.invalid(INTEGRITY_MESSAGES.invalidBody);
  }
  if (fields.resourceId === undefined) return {};
  if (!isId(fields.resourceId)) throw DomainError.notFound(INTEGRITY_MESSAGES.resourceNotFound);
  return { resourceId: fields.resourceId };
}

/** "Verify now": a run of one resource or of every resource with backups, enqueued at once (202). */
export async function verifyNow(
  organization: Organization,
  body: unknown,
  actor: string,
  now = new Date(),
  enqueue: EnqueueVerify = enqueueVerify,
): Promise<VerifyRun> {
  const request = parseVerifyRequest(body);
  let resourceIds: string[];
  if (request.resourceId) {
    const resource = await readVerifyResource(organization, request.resourceId);
    if (!resource) throw DomainError.notFound(INTEGRITY_MESSAGES.resourceNotFound);
    resourceIds = [resource.resourceId];
  } else {
    resourceIds = (await verifyResources(organization))
      .filter((resource) => resource.bytes > 0)
      .map((resource) => resource.resourceId);
    if (resourceIds.length === 0) throw DomainError.conflict(INTEGRITY_MESSAGES.nothingToVerify);
  }
  const { run, created } = await requestVerifyRun(organization, {
    trigger: "manual",
    requestedBy: actor,
    resourceIds,
    now,
  });
  if (!created) throw DomainError.conflict(INTEGRITY_MESSAGES.alreadyRunning);
  await dispatchVerifyRun(organization, run.runId, enqueue);
  return publicRun(run);
}

/**
 * GET …/integrity: every resource with backups or a result (damaged first), the recent runs, and when the
 * daily verification is next due.
 */
export async function integrityReport(organization: Organization): Promise<IntegrityReport> {
  const scope = organization;
  const resources = (await verifyResources(scope)).filter(
    (resource) => resource.bytes > 0 || resource.integrity !== null,
  );
  const views: ResourceIntegrityView[] = resources.map((resource) => ({
    resourceId: resource.resourceId,
    name: resource.name,
    email: resource.email,
    lastVerifiedAt: resource.lastVerifiedAt,
    integrity: resource.integrity,
  }));
  views.sort((a, b) => {
    const damaged = (view: ResourceIntegrityView) => (view.integrity?.state === "damaged" ? 0 : 1);
    return damaged(a) - damaged(b) || a.name.localeCompare(b.name);
  });
  const [runs, lastScheduledAt] = await Promise.all([
    recentVerifyRuns(scope, RECENT_RUNS),
    lastScheduledVerify(organization),
  ]);
  return {
    resources: views,
    runs: runs.map(publicRun),
    dailyVerification: dailyVerification(lastScheduledAt, organization.createdAt),
  };
}

/** Whether the organisation's daily verification is due (the first one a day after set-up). */
async function verifyDue(organization: Organization, now: Date): Promise<boolean> {
  const { nextAt } = dailyVerification(await lastScheduledVerify(organization), organization.createdAt);
  return Date.parse(nextAt) <= now.getTime();
}

/**
 * The dispatcher's verification part for one organisation: the day's run when it is due (the planner's
 * resources; none: nothing is written), and runs nobody works on enqueued again.
 */
export async function dispatchVerification(
  organization: Organization,
  now: Date,
  enqueue: EnqueueVerify = enqueueVerify,
): Promise<{ scheduled: number; redispatched: number }> {
  let scheduled = 0;
  if (await verifyDue(organization, now)) {
    const resources = await verifyResources(organization);
    const untracked = resources.filter((resource) => resource.bytes > 0 && resource.trackedSince === null);
    await trackResources(
      organization,
      untracked.map((resource) => resource.resourceId),
      now.toISOString(),
    );
    const plan = planDay(
      resources.map((resource) => ({
        resourceId: resource.resourceId,
        bytes: resource.bytes,
        lastVerifiedAt: resource.lastVerifiedAt,
        trackedSince: resource.trackedSince ?? now.toISOString(),
      })),
      now,
    );
    if (plan.resourceIds.length > 0) {
      const { run, created } = await requestVerifyRun(organization, {
        trigger: "schedule",
        requestedBy: SYSTEM_ACTOR,
        resourceIds: plan.resourceIds,
        now,
      });
      if (created && (await dispatchVerifyRun(organization, run.runId, enqueue))) scheduled += 1;
    }
  }
  let redispatched = 0;
  const minute = now.toISOString().slice(0, 16).replace(/\D/g, "");
  for (const run of await strandedVerifyRuns(organization, now, VERIFY_REDISPATCH_MS)) {
    if (await dispatchVerifyRun(organization, run.runId, enqueue, `${run.runId}-r${minute}`))
      redispatched += 1;
  }
  return { scheduled, redispatched };
}
