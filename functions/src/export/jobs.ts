/**
 * Export jobs (docs/api.md "Exports"): starting one (checked, written, its task enqueued), following it,
 * its report, a short-lived download link (audited), and the deletion of exports a week after they
 * finished.
 */
import { itemKindOf, SERVICES } from "@alpvault/contracts/services";
import { ValidationError } from "yup";
import {
  EXPORT_FORMATS,
  EXPORT_LINK_MINUTES,
  EXPORT_MESSAGES,
  MAX_EXPORT_PLACE_ITEMS,
  EXPORT_PLACE_FIELDS,
  exportRequestSchema,
  type ExportDownload,
  type ExportFormat,
  type ExportJob,
  type ExportList,
  type ExportProgress,
  type ExportRequest,
  type ExportService,
} from "@alpvault/contracts/exports";
import { ACTIVITY_MESSAGES } from "@alpvault/contracts/activity";
import { isId } from "@alpvault/contracts/ids";
import { searchDateEnd } from "@alpvault/contracts/search";
import type { RegionId } from "@alpvault/contracts/regions";
import { appendAudit } from "../audit/service";
import { quotaOutlook, restoreEta, roundRate } from "../backups/eta";
import { chosenTotals, readBackupResource } from "../backups/service";
import { DomainError } from "../lib/errors";
import { csvField } from "../lib/csv";
import { typeMismatch } from "../lib/json-types";
import { optionalIdParam } from "../lib/query-params";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import type { EnqueueExport } from "./queue";
import { itemKeysIn } from "../search/browse";
import { FORMAT_WRITERS } from "./formats";
import { directoryPartName } from "./job";
import {
  createExport,
  expiredExports,
  exportProblems,
  finishExport,
  listExports,
  markExportExpired,
  newExportId,
  readExport,
  recordExportDownload,
  type StoredExport,
} from "./repo";

/** What the jobs need of the region's bucket. */
export interface ExportStorage {
  signedReadUrl(regionId: RegionId, name: string, expires: Date, fileName: string): Promise<string>;
  delete(regionId: RegionId, name: string): Promise<void>;
}

function parseRequest(body: unknown): ExportRequest {
  const mismatch = typeMismatch(exportRequestSchema, body);
  if (mismatch) throw DomainError.invalid(mismatch);
  try {
    return exportRequestSchema.validateSync(body, { abortEarly: true, stripUnknown: false });
  } catch (error) {
    if (error instanceof ValidationError)
      throw DomainError.invalid(error.errors[0] ?? EXPORT_MESSAGES.invalid);
    throw error;
  }
}

/**
 * While an export runs, its pace and time left: no Google quota applies, so the time left is what its
 * measured pace (items and source bytes settled since it started) needs for the rest.
 */
function exportPace(
  stored: StoredExport,
  now: Date,
): Pick<ExportProgress, "itemsPerMinute" | "etaSeconds" | "limit"> {
  if (stored.state !== "running") return { itemsPerMinute: null, etaSeconds: null, limit: null };
  const { progress } = stored;
  const settled = progress.exported + progress.failed;
  const sourceBytes = stored.checkpoint.sourceBytes;
  const eta = restoreEta({
    work: "export",
    left: {
      items: Math.max(0, progress.total - settled),
      bytes: Math.max(0, progress.totalBytes - sourceBytes),
    },
    ...(stored.startedAt
      ? {
          measured: {
            items: settled,
            bytes: sourceBytes,
            seconds: (now.getTime() - Date.parse(stored.startedAt)) / 1000,
          },
        }
      : {}),
    runs: { user: 1, project: 1, restores: 1 },
    outlook: quotaOutlook(),
  });
  return { itemsPerMinute: roundRate(eta.measuredItemsPerMinute), etaSeconds: eta.seconds, limit: eta.limit };
}

/** What the API shows of a stored export. */
export function toExportJob(stored: StoredExport, now = new Date()): ExportJob {
  return {
    exportId: stored.exportId,
    state: stored.state,
    service: stored.service,
    format: stored.format,
    resourceId: stored.resourceId,
    resourceName: stored.resourceName,
    fileName: stored.fileName,
    asOf: stored.asOf,
    within: stored.within,
    requestedAt: stored.requestedAt,
    requestedBy: stored.requestedBy,
    finishedAt: stored.finishedAt,
    expiresAt: stored.expiresAt,
    progress: { ...stored.progress, ...exportPace(stored, now) },
    failureReason: stored.failureReason,
    problems: stored.problems ?? [],
    downloads: stored.downloads ?? 0,
    lastDownloadedAt: stored.lastDownloadedAt ?? null,
  };
}

/**
 * The items an export takes: those chosen, or a browse's place's (a label's, a folder's, a calendar's, a
 * contact group's: every item a browse of it shows at the date, at most `MAX_EXPORT_PLACE_ITEMS`, kept as
 * the job's item ids), or (null) the whole resource. Items whose file follows what they belong to (a
 * calendar's events) are taken in key order.
 */
async function chosenItems(
  scope: Scope,
  request: ExportRequest,
  service: ExportService,
  asOf: string | null,
): Promise<{ itemIds: string[] | null; within: string | null }> {
  const inKeyOrder = (keys: string[]) => (SERVICES[service].restoresInKeyOrder ? [...keys].sort() : keys);
  const field = EXPORT_PLACE_FIELDS.find((name) => request[name] !== undefined);
  if (field === undefined) {
    const chosen = request.itemIds ?? null;
    return { itemIds: chosen && inKeyOrder(chosen), within: null };
  }
  // A place is one a browse shows (the request's rules tie each to its service).
  const place = await itemKeysIn(
    scope,
    request.resourceId,
    service,
    { [field]: request[field] as string },
    asOf ?? undefined,
    MAX_EXPORT_PLACE_ITEMS,
    EXPORT_MESSAGES.invalid,
  );
  if (place.more) throw DomainError.invalid(EXPORT_MESSAGES.tooManyInPlace);
  if (place.keys.length === 0) throw DomainError.invalid(EXPORT_MESSAGES.nothingToExport);
  return { itemIds: inKeyOrder(place.keys), within: place.within };
}

export async function startExport(
  scope: Scope,
  body: unknown,
  actor: string,
  enqueue: EnqueueExport,
  now = new Date(),
): Promise<ExportJob> {
  const request = parseRequest(body);
  const service = request.service as keyof typeof EXPORT_FORMATS;
  const format = (request.format ?? EXPORT_FORMATS[service][0]) as ExportFormat;
  const resource = await readBackupResource(scope, request.resourceId);
  if (!resource) throw DomainError.notFound(EXPORT_MESSAGES.resourceNotFound);
  if (SERVICES[service].needsMailbox && !resource.email) {
    throw DomainError.invalid(EXPORT_MESSAGES.nothingToExport);
  }
  const asOf = request.date ? (searchDateEnd(request.date) ?? null) : null;
  const { itemIds, within } = await chosenItems(scope, request, service, asOf);
  const totals = await chosenTotals(scope, {
    resourceId: request.resourceId,
    kind: itemKindOf(service),
    itemIds,
    asOf,
  });
  const exportId = newExportId(scope);
  const resourceName = resource.email ?? resource.name;
  // Neither the object's name nor the file name the signed download gives (it is in the download's URL)
  // carries the mailbox's address or the drive's name: the resource's id stands for them.
  const day = now.toISOString().slice(0, 10);
  const extension = FORMAT_WRITERS[format].extension;
  const fileName = `${request.resourceId}-${SERVICES[service].exportWord}-${day}.${extension}`;
  const stored = await createExport(
    scope,
    {
      exportId,
      service,
      format,
      resourceId: request.resourceId,
      resourceName,
      fileName,
      objectName: `o/${scope.organizationId}/x/${exportId}/export.${extension}`,
      itemIds,
      asOf,
      within,
      requestedBy: actor,
    },
    now,
    totals,
  );
  try {
    await enqueue(scope.regionId, { organizationId: scope.organizationId, exportId }, { id: exportId });
  } catch (error) {
    await finishExport(
      scope,
      stored,
      { state: "failed", failureReason: "The export could not be started", expiresAt: now.toISOString() },
      now,
    );
    throw DomainError.unavailable("The export could not be started", error);
  }
  return toExportJob(stored);
}

async function requireExport(scope: Scope, exportId: string): Promise<StoredExport> {
  if (!isId(exportId)) throw DomainError.notFound(EXPORT_MESSAGES.exportNotFound);
  const stored = await readExport(scope, exportId);
  if (!stored) throw DomainError.notFound(EXPORT_MESSAGES.exportNotFound);
  return stored;
}

export async function getExport(scope: Scope, exportId: string): Promise<ExportJob> {
  return toExportJob(await requireExport(scope, exportId));
}

/**
 * The organisation's 50 newest exports, or the 10 newest of one resource (`resourceId` from the query,
 * checked as an id before it reaches Firestore).
 */
export async function exportList(scope: Scope, query: Record<string, unknown> = {}): Promise<ExportList> {
  const resourceId = optionalIdParam(query, "resourceId", ACTIVITY_MESSAGES.invalidResourceId);
  const jobs = resourceId ? await listExports(scope, 10, resourceId) : await listExports(scope, 50);
  const now = new Date();
  return { exports: jobs.map((stored) => toExportJob(stored, now)) };
}

export const EXPORT_REPORT_HEADER = "item,name,reason";

/** The export's report: one CSV line per item it left out, and why. */
export async function exportReport(scope: Scope, exportId: string): Promise<AsyncIterable<string>> {
  await requireExport(scope, exportId);
  return (async function* () {
    yield `${EXPORT_REPORT_HEADER}\r\n`;
    for await (const problem of exportProblems(scope, exportId)) {
      yield `${[problem.itemKey, problem.name, problem.reason].map(csvField).join(",")}\r\n`;
    }
  })();
}

/** A link that downloads the finished export for a few minutes; each one handed out is counted and audited. */
export async function exportDownload(
  scope: Scope,
  exportId: string,
  actor: string,
  storage: ExportStorage,
  now = new Date(),
): Promise<ExportDownload> {
  const stored = await requireExport(scope, exportId);
  if (stored.state === "expired") throw DomainError.conflict(EXPORT_MESSAGES.expired);
  if (stored.state !== "succeeded") throw DomainError.conflict(EXPORT_MESSAGES.notReady);
  const expires = new Date(now.getTime() + EXPORT_LINK_MINUTES * 60_000);
  const url = await storage.signedReadUrl(scope.regionId, stored.objectName, expires, stored.fileName);
  await recordExportDownload(scope, exportId, now);
  await appendAudit(scope, {
    operation: "export.downloaded",
    actor,
    object: `${stored.resourceName} (${stored.format.toUpperCase()})`,
    date: now,
  });
  return { url, expiresAt: expires.toISOString() };
}

/** Deletes the files of exports whose week is over and marks them expired. */
export async function deleteExpiredExports(
  scope: Scope,
  storage: ExportStorage,
  now = new Date(),
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const expired = await expiredExports(scope, now.toISOString(), 50);
    if (expired.length === 0) break;
    for (const job of expired) {
      await storage.delete(scope.regionId, job.objectName);
      for (let part = 0; part < (job.checkpoint?.directoryParts ?? 0); part++) {
        await storage.delete(scope.regionId, directoryPartName(job.objectName, part));
      }
      await markExportExpired(scope, job.exportId);
      deleted += 1;
    }
  }
  if (deleted > 0) logs.exportsExpired({ organizationId: scope.organizationId, deleted });
  return deleted;
}
