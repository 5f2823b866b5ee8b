import type { ExportDownload } from "@alpvault/contracts/exports";
import { exportDownloadSchema } from "@alpvault/contracts/schemas/exports";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { exportsPath } from "./list-exports";

const exportPath = (organizationId: string, exportId: string) =>
  `${exportsPath(organizationId)}/${encodeURIComponent(exportId)}`;

/** Where a finished export's report (every item left out, with why; CSV) is downloaded. */
export function exportReportPath(organizationId: string, exportId: string): string {
  return `${exportPath(organizationId, exportId)}/report`;
}

/**
 * `POST /v1/organizations/{id}/exports/{exportId}/download`: a short-lived signed link to the finished
 * export's file in the bucket (the browser downloads it from there, not through the API).
 */
export async function downloadExport(organizationId: string, exportId: string): Promise<ExportDownload> {
  const answer = await api.post<unknown>(`${exportPath(organizationId, exportId)}/download`);
  return decodeAnswer(exportDownloadSchema, answer);
}
