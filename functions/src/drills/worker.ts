/**
 * The restore-drill worker: one `runDrill` task delivery runs (a stretch of) one drill. It takes the run's
 * lease, fixes the resources to drill (the protected ones) and, resource by resource, draws a random
 * sample of up to `sampleSize` mail messages and up to `sampleSize` Drive files (reservoir sampling over the
 * resource's catalog, one read per item), restores each into the sandbox mailbox (mail under the run's
 * label, files into the run's folder at the top of the sandbox's My Drive), reads it back through Google's
 * API (Gmail `messages.get` raw; Drive `alt=media`) and compares: mail byte for byte with the backed-up
 * message, files by size and content digest (docs/backup-format.md §4) of the download against the
 * version's. A drawn message the sandbox already holds (Gmail keeps one copy of a Message-ID per mailbox)
 * is replaced by one of the spares drawn with it; the sandbox's own mail is not drawn. Each item ends matched, mismatched (why), failed (why) or
 * skipped (why). Google files are not drawn (their restore converts an office export back into a Google
 * file, whose later export is not the same bytes), nor shortcuts, files kept without content, or files
 * above `DRILL_MAX_FILE_BYTES`.
 *
 * Each item's outcome is written before the run's counts; an item marked `restoring` is looked up in the
 * sandbox before it is restored again, so a resumed drill restores nothing twice. Near its deadline the
 * worker saves its position and re-enqueues itself. At the end it moves what it restored to the trash
 * (messages, then the label is deleted; the folder), records the run, audits it and raises an alert when an
 * item did not match or failed.
 */
import { randomInt } from "node:crypto";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { appendAudit } from "../audit/service";
import type { EnqueueDrill, DrillTask } from "./queue";
import { readBackupResource } from "../backups/service";
import { openStretch, type Stretch, type StretchDeps } from "../lib/stretch";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn } from "../organizations/service";
import { protectedResources } from "../resources/service";
import { settleItem } from "./check";
import { putAlert } from "../resources/service";
import { finishRun, saveRunProgress, takeRunLease, type StoredDrillRun } from "./repo";
import { sampleResource } from "./sample";
import { catalogKeyring } from "../backups/data-keys";
import { cleanUpSandbox, openSandbox, type DrillSandbox, type SandboxAccess } from "./sandbox";

export interface DrillDeps extends SandboxAccess, StretchDeps<DrillTask> {
  enqueue: EnqueueDrill;
  /** A random whole number from 0 to `below - 1` (sampling); crypto's by default. */
  random?: (below: number) => number;
}

type DrillStretch = Stretch<Scope, StoredDrillRun>;
type Ending = { state: "passed" } | { state: "failed"; failureReason: string };

export async function executeDrill(
  task: DrillTask,
  deps: DrillDeps,
): Promise<"dropped" | "continued" | "passed" | "failed"> {
  const stretch = await openStretch(task, deps, {
    organization: organizationServedIn,
    lease: (scope, holder, until, now) => takeRunLease(scope, task.drillRunId, holder, until, now),
  });
  if (!stretch) return "dropped";
  const { scope, run, now } = stretch;
  // Keyed by run: the first delivery records it, later ones find it there.
  await appendAudit(scope, {
    operation: "drill.started",
    actor: run.requestedBy || SYSTEM_ACTOR,
    object: `Sandbox ${run.sandboxEmail}`,
    date: new Date(run.startedAt ?? now()),
    key: `drill.started-${run.drillRunId}`,
  });

  const resource = await readBackupResource(scope, run.sandboxResourceId);
  const email = resource?.type === "email" && resource.status === "active" ? resource.email : null;
  if (!email) {
    return end(stretch, undefined, {
      state: "failed",
      failureReason: "The sandbox mailbox is no longer available",
    });
  }
  const sandbox = openSandbox(scope, run, email, deps);
  let walked: "done" | "continued" | "dropped";
  try {
    sandbox.scope = { ...scope, keyring: await catalogKeyring(scope, deps.wrappers) };
    walked = await drill(stretch, sandbox, deps.random ?? ((below: number) => randomInt(below)));
  } catch (error) {
    logs.drillFailed({ organizationId: scope.organizationId, drillRunId: run.drillRunId, error });
    return end(stretch, sandbox, {
      state: "failed",
      failureReason: "The restore drill stopped on an unexpected error",
    });
  }
  if (walked !== "done") return walked;
  const { sample: total, mismatched, failed } = run.counts;
  if (mismatched + failed > 0) {
    const parts = [
      ...(mismatched > 0 ? [`${mismatched} of ${total} items did not match their backup`] : []),
      ...(failed > 0 ? [`${failed} of ${total} items could not be restored`] : []),
    ];
    return end(stretch, sandbox, { state: "failed", failureReason: parts.join("; ") });
  }
  return end(stretch, sandbox, { state: "passed" });
}

/**
 * Resource by resource from the position reached: draws the sample, then checks its items one by one,
 * saving the position after each step. "done" at the end, "continued" when the deadline handed the rest
 * over, "dropped" when the lease was lost.
 */
async function drill(
  stretch: DrillStretch,
  sandbox: DrillSandbox,
  random: (below: number) => number,
): Promise<"done" | "continued" | "dropped"> {
  const { scope, run, holder } = stretch;
  const pause = () => stretch.handOver(() => saveRunProgress(scope, run, holder, true));
  if (!run.resourceIds) {
    const resources = await protectedResources(scope);
    run.resourceIds = resources.map((resource) => resource.resourceId);
    if (!(await saveRunProgress(scope, run, holder))) return "dropped";
  }
  const names = new Map((await protectedResources(scope)).map((entry) => [entry.resourceId, entry.name]));
  while (run.position.resourceIndex < run.resourceIds.length) {
    const resourceId = run.resourceIds[run.position.resourceIndex]!;
    if (!run.position.sampled) {
      if (stretch.late()) return await pause();
      const resource = { resourceId, name: names.get(resourceId) ?? resourceId };
      await sampleResource(sandbox.scope, run, resource, random);
      if (!(await saveRunProgress(scope, run, holder))) return "dropped";
    }
    while (run.position.itemIndex < run.position.itemsTo) {
      if (stretch.late()) return await pause();
      await settleItem(sandbox, run.position.itemIndex);
      run.position.itemIndex += 1;
      if (!(await saveRunProgress(scope, run, holder))) return "dropped";
    }
    run.position = { ...run.position, resourceIndex: run.position.resourceIndex + 1, sampled: false };
    if (!(await saveRunProgress(scope, run, holder))) return "dropped";
  }
  return "done";
}

/** Clears the sandbox (once), records the run, audits it and raises an alert when it failed. */
async function end(stretch: DrillStretch, sandbox: DrillSandbox | undefined, outcome: Ending) {
  const { scope, run, now } = stretch;
  if (sandbox && !run.position.cleaned) {
    try {
      await cleanUpSandbox(sandbox);
      run.position.cleaned = true;
    } catch (error) {
      logs.drillCleanupFailed({ organizationId: scope.organizationId, drillRunId: run.drillRunId, error });
    }
  }
  await finishRun(scope, run, outcome, new Date(now()));
  const operation = outcome.state === "passed" ? "drill.finished" : "drill.failed";
  await appendAudit(scope, {
    operation,
    actor: run.requestedBy || SYSTEM_ACTOR,
    object: `Sandbox ${run.sandboxEmail}: ${run.counts.matched} of ${run.counts.sample} items matched`,
    failureReason: outcome.state === "failed" ? outcome.failureReason : null,
    date: new Date(now()),
    key: `${operation}-${run.drillRunId}`,
  });
  if (outcome.state === "failed") {
    // Keyed by run: a repeated delivery raises it once.
    await putAlert(scope, `drill-failed-${run.drillRunId}`, {
      createdAt: new Date(now()).toISOString(),
      message: `Restore drill failed: ${outcome.failureReason}`,
      kind: "drill-failed",
      read: false,
    });
  }
  logs.drillEnded({
    organizationId: scope.organizationId,
    drillRunId: run.drillRunId,
    state: outcome.state,
    ...run.counts,
  });
  return outcome.state;
}
