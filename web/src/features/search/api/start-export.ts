import type { ExportFormat, ExportJob } from "@alpvault/contracts/exports";
import type { SearchService } from "@alpvault/contracts/search";
import { exportJobSchema } from "@alpvault/contracts/schemas/exports";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { exportsKeys, exportsPath } from "./list-exports";

export interface ExportRequestBody {
  resourceId: string;
  service: SearchService;
  format: ExportFormat;
  /** The chosen items (none: everything backed up of the service, or of `label` or `folder`). */
  itemIds?: string[];
  /** Gmail: a browse's label (as the browse names it): every item a browse of it shows. */
  label?: string;
  /** Drive: a browse's folder path: its own files, as a browse of it shows them. */
  folder?: string;
  /** MM-DD-YYYY: the items as the backups held them at the end of that day. */
  date?: string;
}

/**
 * `POST /v1/organizations/{id}/exports`: starts an export job (202) that writes the file into the
 * organisation's regional bucket; the exports list follows it.
 */
export async function startExport(organizationId: string, request: ExportRequestBody): Promise<ExportJob> {
  return decodeAnswer(exportJobSchema, await api.post<unknown>(exportsPath(organizationId), request));
}

export function useStartExport() {
  return useApiMutation(startExport, (organizationId) => [exportsKeys.all(organizationId)]);
}
