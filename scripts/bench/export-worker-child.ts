/**
 * The export worker in a process of its own, forked by `recovery-export.ts`, so its peak memory is the
 * worker's alone (the emulators live in the parent): it delivers the job's task again and again, as Cloud
 * Tasks would after each re-enqueue, until the export ends, then sends how many deliveries it took, the
 * process's peak RSS (`resourceUsage().maxRSS`) and the time.
 */
import type { RegionId } from "@alpvault/contracts/regions";

export interface ExportWorkerReport {
  outcome: string;
  deliveries: number;
  peakRssBytes: number;
  seconds: number;
  error?: string;
}

async function main(): Promise<ExportWorkerReport> {
  const { GcsBlobStore } = await import("../../functions/src/engine/blobstore/gcs-blob-store");
  const { defaultKeyWrapper } = await import("../../functions/src/engine/format/keys");
  const { executeExport } = await import("../../functions/src/export/job");
  const env = process.env;
  const regionId = "ch" as RegionId;
  const store = new GcsBlobStore({
    bucket: env.EXPORT_BENCH_BUCKET as string,
    projectId: env.GCLOUD_PROJECT as string,
    apiEndpoint: env.EXPORT_BENCH_STORAGE as string,
  });
  const keyEncryptionKey = Buffer.from(env.EXPORT_BENCH_KEK as string, "base64");
  const task = {
    organizationId: env.EXPORT_BENCH_ORG as string,
    exportId: env.EXPORT_BENCH_EXPORT as string,
  };
  const atStart = process.memoryUsage();
  const started = performance.now();
  // What the process holds at its fullest, sampled (the report's peak is the kernel's maxRSS).
  let fullest = process.memoryUsage();
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    if (usage.rss > fullest.rss) fullest = usage;
  }, 250);
  let deliveries = 0;
  let outcome = "continued";
  while (outcome === "continued") {
    let enqueued = false;
    deliveries += 1;
    outcome = await executeExport(task, {
      blobStore: () => store,
      upload: () => store.uploadTarget(),
      wrappers: () => defaultKeyWrapper(keyEncryptionKey),
      enqueue: async () => {
        enqueued = true;
      },
      budgetMs: Number(env.EXPORT_BENCH_BUDGET_MS),
      servingRegion: regionId,
    });
    if (outcome === "continued" && !enqueued) throw new Error("a delivery handed over without a task");
  }
  clearInterval(sampler);
  const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    `export worker with its modules loaded: rss ${MiB(atStart.rss)}, heap ${MiB(atStart.heapUsed)}; at its fullest: rss ${MiB(fullest.rss)}, heap ${MiB(fullest.heapUsed)} of ${MiB(fullest.heapTotal)}, ` +
      `external ${MiB(fullest.external)}, array buffers ${MiB(fullest.arrayBuffers)}`,
  );
  return {
    outcome,
    deliveries,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    seconds: (performance.now() - started) / 1000,
  };
}

if (process.send) {
  void main()
    .catch((error: unknown): ExportWorkerReport => ({
      outcome: "error",
      deliveries: 0,
      peakRssBytes: 0,
      seconds: 0,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    }))
    .then((report) => process.send?.(report, () => process.exit(0)));
}
