import type { SearchService } from "@alpvault/contracts/search";
import { apiDownload } from "@/lib/api-client";

/**
 * `POST /v1/organizations/{id}/exports/mbox|zip`: a resource's backed-up mail as MBOX or Drive files as
 * ZIP (the named items, or all of them; with a date, as the backups held them at the end of that day),
 * decrypted by the API on the fly and streamed.
 */
export function exportBackups(
  organizationId: string,
  request: { resourceId: string; service: SearchService; itemIds?: string[]; date?: string },
  onProgress?: (bytes: number) => void,
): Promise<Blob> {
  const format = request.service === "gmail" ? "mbox" : "zip";
  return apiDownload(
    `/organizations/${encodeURIComponent(organizationId)}/exports/${format}`,
    request,
    onProgress,
  );
}
