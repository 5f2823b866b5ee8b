/**
 * Restore drills: the settings (the sandbox mailbox, the sample size, the schedule; audited), starting a
 * drill now or on schedule (one at a time per organisation, 409 otherwise), and reading the history. A run
 * is written first, then its task enqueued; should the enqueue fail, a manual start answers so and the run
 * ends failed, while the dispatcher enqueues a stranded run again.
 */
import { ValidationError } from "yup";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import {
  DRILL_MESSAGES,
  DRILL_RUNS_MAX_PAGE_SIZE,
  DRILL_RUNS_PAGE_SIZE,
  drillSettingsSchema,
  type DrillRun,
  type DrillRunDetail,
  type DrillRunsPage,
  type DrillSettings,
  type DrillSettingsRequest,
} from "@alpvault/contracts/drills";
import { auditedChange, type AuditRecord } from "../audit/service";
import { enqueueDrill, type EnqueueDrill } from "./queue";
import { readBackupResource } from "../backups/service";
import { DomainError } from "../lib/errors";
import { typeMismatch } from "../lib/json-types";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import {
  EMPTY_COUNTS,
  createRun,
  finishRun,
  listItems,
  listRuns,
  readActiveRun,
  readRun,
  readSettings,
  readSettingsIn,
  setNextDrillAt,
  writeSettings,
  type StoredDrillRun,
  type StoredDrillSettings,
} from "./repo";
import { nextDrillAt } from "./schedule";

/** A pending run not picked up (or a running one whose lease lapsed) this long is enqueued again. */
export const STRANDED_DRILL_MS = 10 * 60_000;

function parseSettings(body: unknown): DrillSettingsRequest {
  const mismatch = typeMismatch(drillSettingsSchema, body);
  if (mismatch) throw DomainError.invalid(mismatch);
  try {
    return drillSettingsSchema.validateSync(body, { abortEarly: true, stripUnknown: false });
  } catch (error) {
    if (error instanceof ValidationError) throw DomainError.invalid(error.errors[0] ?? DRILL_MESSAGES.failed);
    throw error;
  }
}

function toSettings(stored: StoredDrillSettings): DrillSettings {
  return {
    enabled: stored.enabled,
    sandboxResourceId: stored.sandboxResourceId,
    sandboxEmail: stored.sandboxEmail,
    sampleSize: stored.sampleSize,
    schedule: stored.schedule,
    nextDrillAt: stored.enabled ? stored.nextDrillAt : null,
    updatedAt: stored.updatedAt,
    updatedBy: stored.updatedBy,
  };
}

export function toDrillRun(stored: StoredDrillRun): DrillRun {
  return {
    drillRunId: stored.drillRunId,
    state: stored.state,
    trigger: stored.trigger,
    requestedBy: stored.requestedBy,
    requestedAt: stored.requestedAt,
    startedAt: stored.startedAt ?? null,
    finishedAt: stored.finishedAt ?? null,
    durationMs: stored.durationMs ?? null,
    sandboxResourceId: stored.sandboxResourceId,
    sandboxEmail: stored.sandboxEmail,
    sampleSize: stored.sampleSize,
    counts: stored.counts,
    resources: stored.resources ?? [],
    problems: stored.problems ?? [],
    failureReason: stored.failureReason ?? null,
  };
}

export async function getDrillSettings(scope: Scope): Promise<DrillSettings> {
  return toSettings(await readSettings(scope));
}

/**
 * The sandbox must be an active mailbox of the organisation (the drill imports mail into it): 404 for a
 * resource the organisation does not have, 400 for a shared drive or a suspended or deleted mailbox.
 */
async function sandboxEmail(scope: Scope, resourceId: string): Promise<string> {
  const resource = await readBackupResource(scope, resourceId);
  if (!resource) throw DomainError.notFound(BACKUP_MESSAGES.resourceNotFound);
  if (resource.type !== "email" || !resource.email || resource.status !== "active") {
    throw DomainError.invalid(DRILL_MESSAGES.sandboxInvalid);
  }
  return resource.email;
}

/** Saves the settings with their audit entry (only when something changed), in one transaction. */
function saveSettings(
  scope: Scope,
  change: (current: StoredDrillSettings) => { settings: StoredDrillSettings; audit?: AuditRecord },
): Promise<StoredDrillSettings> {
  return auditedChange(scope, async (transaction, audit) => {
    const { settings, audit: entry } = change(await readSettingsIn(transaction, scope));
    writeSettings(transaction, scope, settings);
    if (entry) audit(entry);
    return settings;
  });
}

const describe = (settings: DrillSettingsRequest & { sandboxEmail: string | null }) =>
  `${settings.enabled ? "enabled" : "disabled"}, sandbox ${settings.sandboxEmail ?? "none"}, ${settings.sampleSize} items per resource and service, ${settings.schedule}`;

export async function putDrillSettings(
  scope: Scope,
  body: unknown,
  actor: string,
  now = new Date(),
): Promise<DrillSettings> {
  const request = parseSettings(body);
  const email = request.sandboxResourceId ? await sandboxEmail(scope, request.sandboxResourceId) : null;
  const saved = await saveSettings(scope, (current) => {
    const next: StoredDrillSettings = {
      ...current,
      enabled: request.enabled,
      sandboxResourceId: request.sandboxResourceId,
      sandboxEmail: email,
      sampleSize: request.sampleSize,
      schedule: request.schedule,
    };
    const changed =
      current.enabled !== next.enabled ||
      current.sandboxResourceId !== next.sandboxResourceId ||
      current.sampleSize !== next.sampleSize ||
      current.schedule !== next.schedule;
    if (!changed) return { settings: current };
    // A new schedule (or enabling) takes the next slot; otherwise the planned one stays.
    const reschedule = !current.enabled || current.schedule !== next.schedule || !current.nextDrillAt;
    next.nextDrillAt = next.enabled
      ? reschedule
        ? nextDrillAt(next.schedule, now).toISOString()
        : current.nextDrillAt
      : null;
    next.updatedAt = now.toISOString();
    next.updatedBy = actor;
    return {
      settings: next,
      audit: {
        operation: "drill-settings.updated",
        actor,
        object: describe(next),
        date: now,
      },
    };
  });
  return toSettings(saved);
}

/** The run a drill starts with: counts at zero, the sandbox's label and folder named after its start. */
function newRun(
  settings: StoredDrillSettings,
  trigger: DrillRun["trigger"],
  actor: string,
  now: Date,
): Omit<StoredDrillRun, "drillRunId"> | undefined {
  if (!settings.sandboxResourceId || !settings.sandboxEmail) return undefined;
  return {
    state: "pending",
    trigger,
    requestedBy: actor,
    requestedAt: now.toISOString(),
    startedAt: null,
    finishedAt: null,
    durationMs: null,
    sandboxResourceId: settings.sandboxResourceId,
    sandboxEmail: settings.sandboxEmail,
    sampleSize: settings.sampleSize,
    counts: { ...EMPTY_COUNTS },
    resources: [],
    problems: [],
    failureReason: null,
    resourceIds: null,
    position: { resourceIndex: 0, sampled: false, itemsFrom: 0, itemsTo: 0, itemIndex: 0, cleaned: false },
    restoreName: `Alpvault drill ${now.toISOString().slice(0, 16).replace("T", " ")} UTC`,
    lease: null,
  };
}

/** POST …/drills/run: a drill now (202), with the sandbox of the settings. */
export async function startDrill(
  scope: Scope,
  actor: string,
  now = new Date(),
  enqueue: EnqueueDrill = enqueueDrill,
): Promise<DrillRun> {
  const settings = await readSettings(scope);
  if (!settings.sandboxResourceId) throw DomainError.invalid(DRILL_MESSAGES.sandboxRequired);
  // The sandbox is checked again: it may have been suspended or deleted since it was chosen.
  await sandboxEmail(scope, settings.sandboxResourceId);
  const created = await createRun(scope, (current) => newRun(current, "manual", actor, now));
  if (created.kind === "busy") throw DomainError.conflict(DRILL_MESSAGES.inProgress);
  if (created.kind === "none") throw DomainError.invalid(DRILL_MESSAGES.sandboxRequired);
  try {
    await enqueue(
      scope.regionId,
      { organizationId: scope.organizationId, drillRunId: created.run.drillRunId },
      { id: created.run.drillRunId },
    );
  } catch (error) {
    await finishRun(scope, created.run, { state: "failed", failureReason: DRILL_MESSAGES.failed }, now);
    throw DomainError.unavailable(DRILL_MESSAGES.failed, error);
  }
  return toDrillRun(created.run);
}

function pageOf(value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || number < 1) throw DomainError.invalid(DRILL_MESSAGES.invalidPage);
  return Math.min(number, max);
}

export async function drillRuns(scope: Scope, query: Record<string, unknown>): Promise<DrillRunsPage> {
  const page = pageOf(query.page, 1, 1_000_000);
  const pageSize = pageOf(query.pageSize, DRILL_RUNS_PAGE_SIZE, DRILL_RUNS_MAX_PAGE_SIZE);
  const { runs, total } = await listRuns(scope, page, pageSize);
  return { runs: runs.map(toDrillRun), page, pageSize, total };
}

export async function drillRun(scope: Scope, drillRunId: string): Promise<DrillRunDetail> {
  const stored = await readRun(scope, drillRunId);
  if (!stored) throw DomainError.notFound(DRILL_MESSAGES.runNotFound);
  const items = await listItems(scope, drillRunId);
  return {
    ...toDrillRun(stored),
    items: items.map((item) => ({
      itemKey: item.itemKey,
      resourceId: item.resourceId,
      resourceName: item.resourceName,
      service: item.service,
      name: item.name,
      outcome: item.outcome ?? null,
      reason: item.reason ?? null,
    })),
  };
}

/**
 * The dispatcher's drill part for one organisation: a scheduled drill when one is due (its next one moved
 * to the schedule's next slot; a drill still running, or no sandbox, waits for that slot), and a stranded
 * run enqueued again.
 */
export async function dispatchDrill(
  scope: Scope,
  now: Date,
  enqueue: EnqueueDrill = enqueueDrill,
): Promise<{ started: boolean; redispatched: boolean }> {
  const active = await readActiveRun(scope);
  if (active) {
    const since = Date.parse(active.lease?.until ?? active.requestedAt);
    const stranded =
      active.state === "pending"
        ? now.getTime() - Date.parse(active.requestedAt) > STRANDED_DRILL_MS
        : active.lease === null || since < now.getTime();
    if (!stranded) return { started: false, redispatched: false };
    const minute = now.toISOString().slice(0, 16).replace(/\D/g, "");
    await enqueue(
      scope.regionId,
      { organizationId: scope.organizationId, drillRunId: active.drillRunId },
      { id: `${active.drillRunId}-r${minute}` },
    );
    return { started: false, redispatched: true };
  }
  const settings = await readSettings(scope);
  if (!settings.enabled || !settings.nextDrillAt || Date.parse(settings.nextDrillAt) > now.getTime()) {
    return { started: false, redispatched: false };
  }
  const next = nextDrillAt(settings.schedule, now).toISOString();
  const created = await createRun(
    scope,
    (current) => newRun(current, "schedule", SYSTEM_ACTOR, now),
    () => next,
  );
  if (created.kind !== "created") {
    await setNextDrillAt(scope, next);
    return { started: false, redispatched: false };
  }
  try {
    await enqueue(
      scope.regionId,
      { organizationId: scope.organizationId, drillRunId: created.run.drillRunId },
      { id: created.run.drillRunId },
    );
  } catch (error) {
    // The run stays pending: the next dispatcher run enqueues it again.
    logs.drillDispatchFailed({ organizationId: scope.organizationId, error });
  }
  return { started: true, redispatched: false };
}
