import type {
  ExportFormat,
  ExportJob,
  ExportList,
  ExportProblem,
  ExportService,
  ExportState,
} from "@alpvault/contracts/exports";
import { asFields, isCount, isNullableString, isString, unexpectedAnswer } from "@/lib/decode";
import { api } from "@/lib/api-client";
import { skipToken, useQuery } from "@tanstack/react-query";

const STATES: readonly ExportState[] = ["pending", "running", "succeeded", "failed", "expired"];
const SERVICES: readonly ExportService[] = ["gmail", "drive"];
const FORMATS: readonly ExportFormat[] = ["mbox", "eml", "zip"];

/** Where an organisation's export jobs live in the API. */
export function exportsPath(organizationId: string): string {
  return `/organizations/${encodeURIComponent(organizationId)}/exports`;
}

function decodeProblem(value: unknown): ExportProblem {
  const p = asFields(value);
  if (isString(p.itemKey) && isString(p.name) && isString(p.reason)) {
    return { itemKey: p.itemKey, name: p.name, reason: p.reason };
  }
  return unexpectedAnswer();
}

/** Decodes an export job as the API answers it (anything else is an unexpected answer). */
export function decodeExportJob(value: unknown): ExportJob {
  const v = asFields(value);
  const progress = asFields(v.progress);
  if (
    isString(v.exportId) &&
    (STATES as readonly unknown[]).includes(v.state) &&
    (SERVICES as readonly unknown[]).includes(v.service) &&
    (FORMATS as readonly unknown[]).includes(v.format) &&
    isString(v.resourceId) &&
    isString(v.resourceName) &&
    isString(v.fileName) &&
    isNullableString(v.asOf) &&
    isString(v.requestedAt) &&
    isString(v.requestedBy) &&
    isNullableString(v.finishedAt) &&
    isNullableString(v.expiresAt) &&
    isCount(progress.total) &&
    isCount(progress.exported) &&
    isCount(progress.failed) &&
    isCount(progress.bytes) &&
    isNullableString(v.failureReason) &&
    Array.isArray(v.problems) &&
    isCount(v.downloads) &&
    isNullableString(v.lastDownloadedAt)
  ) {
    return {
      exportId: v.exportId,
      state: v.state as ExportState,
      service: v.service as ExportService,
      format: v.format as ExportFormat,
      resourceId: v.resourceId,
      resourceName: v.resourceName,
      fileName: v.fileName,
      asOf: v.asOf,
      requestedAt: v.requestedAt,
      requestedBy: v.requestedBy,
      finishedAt: v.finishedAt,
      expiresAt: v.expiresAt,
      progress: {
        total: progress.total,
        exported: progress.exported,
        failed: progress.failed,
        bytes: progress.bytes,
      },
      failureReason: v.failureReason,
      problems: v.problems.map(decodeProblem),
      downloads: v.downloads,
      lastDownloadedAt: v.lastDownloadedAt,
    };
  }
  return unexpectedAnswer();
}

/** `GET /v1/organizations/{id}/exports`: the organisation's export jobs, newest first. */
export async function listExports(organizationId: string, signal?: AbortSignal): Promise<ExportList> {
  const answer = asFields(await api.get<unknown>(exportsPath(organizationId), { signal }));
  if (!Array.isArray(answer.exports)) return unexpectedAnswer();
  return { exports: answer.exports.map(decodeExportJob) };
}

/** How long after each answer the list is read again while an export is under way. */
export const EXPORTS_POLL_MS = 2000;

export const isExportUnderWay = (job: ExportJob) => job.state === "pending" || job.state === "running";

/** The query keys of the organisation's export jobs (starting one invalidates them). */
export const exportsKeys = {
  all: (organizationId: string | null) => ["exports", organizationId] as const,
};

/** The export jobs, read again every `EXPORTS_POLL_MS` while one is under way. */
export function useExports(organizationId: string | null) {
  return useQuery({
    queryKey: exportsKeys.all(organizationId),
    queryFn: organizationId ? ({ signal }) => listExports(organizationId, signal) : skipToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (query.state.data?.exports.some(isExportUnderWay) ? EXPORTS_POLL_MS : false),
  });
}
