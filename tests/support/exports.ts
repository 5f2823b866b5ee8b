/** Export jobs through the API as the web app uses them: start, wait for the end, download the file. */
import type { ExportDownload, ExportJob } from "@alpvault/contracts/exports";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import type { ApiCaller } from "./organizations";
import { afterBackgroundWork } from "./wait";

export function exportsOf(call: ApiCaller, organization: OrganizationSummary) {
  const base = `/organizations/${organization.organizationId}/exports`;
  return {
    base,
    /** POST …/exports with the body as given. */
    start: (body: Record<string, unknown>) => call(base, { method: "POST", body }),
    /** The export once it succeeded or failed (see `afterBackgroundWork`; `ms`: its hang bound). */
    finished: (exportId: string, ms = 180_000): Promise<ExportJob> =>
      afterBackgroundWork(
        `Export ${exportId}`,
        async () => (await call(`${base}/${exportId}`)).body as ExportJob,
        (job) => job.state === "succeeded" || job.state === "failed",
        ms,
      ),
    /** Asks for a download link and reads the file through it (from the bucket, not through the API). */
    async download(
      exportId: string,
    ): Promise<{ link: ExportDownload; bytes: Buffer; disposition: string | null }> {
      const answer = await call(`${base}/${exportId}/download`, { method: "POST" });
      if (answer.status !== 200)
        throw new Error(`Download link refused: ${answer.status} ${answer.bytes.toString()}`);
      const link = answer.body as ExportDownload;
      const response = await fetch(link.url);
      if (response.status !== 200)
        throw new Error(`Download failed: ${response.status} ${await response.text()}`);
      return {
        link,
        bytes: Buffer.from(await response.arrayBuffer()),
        disposition: response.headers.get("content-disposition"),
      };
    },
  };
}
