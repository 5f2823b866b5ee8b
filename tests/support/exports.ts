/** Export jobs through the API as the web app uses them: start, wait for the end, download the file. */
import { execFileSync } from "node:child_process";
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

/**
 * The entries of a ZIP as Python's zipfile reads them (a reader nobody here wrote): it checks every
 * entry's CRC-32 first (`testzip`), then answers each name with its bytes, in the archive's order.
 */
export function unzipWithPython(archive: Buffer): Map<string, Buffer> {
  const script = [
    "import base64, io, json, sys, zipfile",
    "z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))",
    "assert z.testzip() is None",
    "print(json.dumps([[n, base64.b64encode(z.read(n)).decode()] for n in z.namelist()]))",
  ].join("\n");
  const out = execFileSync("python3", ["-c", script], { input: archive, maxBuffer: 256 * 1024 * 1024 });
  const entries = JSON.parse(out.toString("utf8")) as [string, string][];
  return new Map(entries.map(([name, data]) => [name, Buffer.from(data, "base64")]));
}
