/**
 * Section "export": an export job of a 2 GiB mailbox, as the `runExport` worker runs it, across several task
 * deadlines, with its peak memory, and its MBOX checked message by message by an independent reader.
 *
 * A Firestore emulator and the Cloud Storage emulator of this section's own (free ports; object bytes on
 * disk). Seeding writes what a backup would: the organisation's routing and data key (the production
 * `activeDataKey`), and ~10,000 messages of 100–300 KiB (random base64 bodies with `From ` and `>From `
 * lines that mboxrd must quote) as AVC1 chunks (the production `encodeChunk`) in the bucket and catalog
 * items in Firestore. The export job is created with the production `createExport`; a forked process runs
 * the production `executeExport` (bundled with esbuild as the functions are, under plain node) delivery
 * after delivery with a 20-second budget (production: 7 minutes),
 * so the file crosses many checkpoints and hand-overs; it reports its peak RSS. The MBOX is then read from
 * the bucket as a stream by `tests/support/mbox-reader.ts` (not the product's parser) and each message's
 * SHA-256 is compared with the seeded message's, in order.
 */
import { fork } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { startFirestore } from "../../emulators/firestore/src/index";
import { startStorageEmulator } from "../../emulators/storage/src/index";
import { readMbox } from "../../tests/support/mbox-reader";
import { ROOT, freePort } from "../ports";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import type { MeasuredFigure } from "./types";
import type { ExportWorkerReport } from "./export-worker-child";
import type { BenchResult } from "./types";

/** 2 GiB; `EXPORT_BENCH_MIB` sets another size (a quicker look while working on the worker). */
export const EXPORT_TARGET_BYTES = Number(process.env.EXPORT_BENCH_MIB ?? 2048) * 1024 ** 2;
const ORGANIZATION_ID = "org-export-bench";
const RESOURCE_ID = "user-export-bench";
const OWNER = "mailbox.owner@export-bench.test";
const BUDGET_MS = 20_000;
const PIECE = 200 * 1024;
const MiB = 1024 * 1024;

/** One message: headers, then base64 lines, some of them `From ` lines that the MBOX must quote. */
function message(index: number, size: number): Buffer {
  const header =
    `From: "Sender ${index % 97}" <sender${index % 97}@export-bench.test>\r\nTo: ${OWNER}\r\n` +
    `Subject: Figures ${index}\r\nDate: ${new Date(Date.UTC(2025, 0, 1) + index * 60_000).toUTCString()}\r\n` +
    `Message-ID: <${index}@export-bench.test>\r\n\r\n`;
  const lines: string[] = [];
  let length = header.length;
  let line = 0;
  while (length < size) {
    const text =
      line % 50 === 7 ? "From the desk of the treasurer" : line % 50 === 9 ? ">From a quoted line" : "";
    const next = text || randomBytes(57).toString("base64");
    lines.push(next);
    length += next.length + 2;
    line += 1;
  }
  return Buffer.from(`${header}${lines.join("\r\n")}\r\n`, "latin1");
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The organisation, its mailbox resource, its data key and the bucket, as a backup would have left them. */
async function setUp(storageUrl: string, project: string) {
  const { globalDb } = await import("../../functions/src/lib/firebase");
  const { organizationRef } = await import("../../functions/src/lib/tenancy");
  const { activeDataKey, dataKeyResolver } = await import("../../functions/src/backups/data-keys");
  const { defaultKeyWrapper } = await import("../../functions/src/engine/format/keys");
  const { GcsBlobStore, regionBucketName } =
    await import("../../functions/src/engine/blobstore/gcs-blob-store");
  const scope = { organizationId: ORGANIZATION_ID, regionId: "ch" } as const;
  const now = new Date();
  await globalDb().collection("organizations").doc(ORGANIZATION_ID).set({
    organizationId: ORGANIZATION_ID,
    domain: "export-bench.test",
    regionId: "ch",
    subscriptionId: "sub-export-bench",
    createdAt: now.toISOString(),
    createdBy: OWNER,
    adminEmail: OWNER,
  });
  const resource = organizationRef(scope).collection("resources").doc(RESOURCE_ID);
  await resource.set({ type: "email", name: "Mailbox Owner", email: OWNER, status: "active" });
  const keyEncryptionKey = randomBytes(32);
  const wrappers = () => defaultKeyWrapper(keyEncryptionKey);
  const dataKey = await activeDataKey(scope, wrappers, now);
  const keys = await dataKeyResolver(scope, wrappers)(dataKey.id);
  const bucket = regionBucketName(project, "ch");
  const store = new GcsBlobStore({
    bucket,
    projectId: project,
    apiEndpoint: storageUrl,
  });
  return { scope, now, resource, keyEncryptionKey, dataKeyId: dataKey.id, keys, bucket, store, storageUrl };
}

type Setting = Awaited<ReturnType<typeof setUp>>;

/** Messages until the target size, their chunks stored 8 at a time, items written in bulk. */
async function seed({
  resource,
  keys,
  dataKeyId,
  store,
}: Setting): Promise<{ expected: string[]; total: number }> {
  const { encodeChunk } = await import("../../functions/src/engine/format/chunk-codec");
  const { contentDigest } = await import("../../functions/src/engine/format/content-digest");
  const { catalogDocId } = await import("../../functions/src/engine/runner/catalog-ids");
  const { itemOf } = await import("../../functions/src/engine/runner/catalog-items");
  const { mailSearchFields } = await import("../../functions/src/engine/gmail/search-fields");
  const seedStarted = performance.now();
  const expected: string[] = [];
  const writer = resource.firestore.bulkWriter({ throttling: false });
  let total = 0;
  const pending = new Set<Promise<unknown>>();
  for (let index = 0; total < EXPORT_TARGET_BYTES; index += 1) {
    const size = 100 * 1024 + Math.floor(Math.random() * 200 * 1024);
    const raw = message(index, size);
    const itemKey = (0x1900000000000000n + BigInt(index)).toString(16);
    const chunks: { id: string; size: number }[] = [];
    for (let start = 0; start < raw.length; start += PIECE) {
      const encoded = await encodeChunk(
        { organizationId: ORGANIZATION_ID, keys },
        raw.subarray(start, start + PIECE),
      );
      chunks.push({ id: encoded.id, size: encoded.size });
      const put = store.putIfAbsent(encoded.objectName, encoded.body).finally(() => pending.delete(put));
      pending.add(put);
      if (pending.size >= 8) await Promise.race(pending);
    }
    const date = new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString();
    const version: CatalogVersion = {
      versionId: `${itemKey}@1`,
      itemKey,
      kind: "gmail-message",
      versionKey: "1",
      contentKey: itemKey,
      capturedAt: date,
      runId: "run-export-bench",
      size: raw.length,
      storedBytes: raw.length,
      contentDigest: contentDigest(keys, raw),
      dataKeyId,
      metadata: { labels: [] },
      search: mailSearchFields(raw, raw.length, { labels: [] }),
      formatVersion: 1,
      chunks,
    };
    // The item as the catalog writes it for its first version.
    void writer.set(resource.collection("items").doc(catalogDocId(itemKey)), itemOf(version, undefined));
    expected.push(sha(raw));
    total += raw.length;
  }
  await Promise.all(pending);
  await writer.close();
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  console.log(
    `recovery bench: seeded ${expected.length} messages, ${(total / MiB).toFixed(0)} MiB in ${seedSeconds.toFixed(0)} s`,
  );
  return { expected, total };
}

/**
 * The worker bundled as production runs it: by esbuild as functions/build.mjs bundles the functions,
 * under plain node (no TypeScript loader holding sources in memory).
 */
async function buildWorker(): Promise<string> {
  const workerFile = join(ROOT, ".tmp", "bench", "export-worker.cjs");
  await build({
    entryPoints: [join(__dirname, "export-worker-child.ts")],
    outfile: workerFile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: Object.keys(
      (
        JSON.parse(readFileSync(join(ROOT, "functions", "package.json"), "utf8")) as {
          dependencies: object;
        }
      ).dependencies,
    ),
    alias: { "@alpvault/contracts": join(ROOT, "contracts", "src") },
    logLevel: "warning",
  });
  return workerFile;
}

/** Runs the export in a forked worker, delivery after delivery; its report. */
function runWorker(workerFile: string, setting: Setting, exportId: string): Promise<ExportWorkerReport> {
  const { bucket, keyEncryptionKey } = setting;
  return new Promise<ExportWorkerReport>((resolve, reject) => {
    const child = fork(workerFile, [], {
      execArgv: [],
      env: {
        ...process.env,
        EXPORT_BENCH_BUCKET: bucket,
        EXPORT_BENCH_STORAGE: setting.storageUrl,
        EXPORT_BENCH_KEK: keyEncryptionKey.toString("base64"),
        EXPORT_BENCH_ORG: ORGANIZATION_ID,
        EXPORT_BENCH_EXPORT: exportId,
        EXPORT_BENCH_BUDGET_MS: String(BUDGET_MS),
      },
    });
    let answer: ExportWorkerReport | undefined;
    child.on("message", (message) => (answer = message as ExportWorkerReport));
    child.once("error", reject);
    child.once("exit", (code) =>
      answer ? resolve(answer) : reject(new Error(`the export worker ended (${code}) without a report`)),
    );
  });
}

/** The export file read back as a stream by the independent reader, message by message in catalog order. */
async function compareMbox(
  { store }: Setting,
  objectName: string,
  expected: string[],
): Promise<{ read: number; identical: number }> {
  let read = 0;
  let identical = 0;
  for await (const message of readMbox(store.createReadStream(objectName))) {
    if (sha(message) === expected[read]) identical += 1;
    read += 1;
  }
  return { read, identical };
}

/** Creates the export job with the production `createExport`. */
async function createJob({ scope, now }: Setting) {
  const { createExport, newExportId } = await import("../../functions/src/export/repo");
  const { chosenTotals } = await import("../../functions/src/backups/service");
  const exportId = newExportId(scope);
  const totals = await chosenTotals(scope, {
    resourceId: RESOURCE_ID,
    kind: "gmail-message",
    itemIds: null,
    asOf: null,
  });
  return createExport(
    scope,
    {
      exportId,
      service: "gmail",
      format: "mbox",
      resourceId: RESOURCE_ID,
      resourceName: OWNER,
      fileName: "bench.mbox",
      objectName: `o/${ORGANIZATION_ID}/x/${exportId}/bench.mbox`,
      itemIds: null,
      asOf: null,
      within: null,
      requestedBy: OWNER,
    },
    now,
    totals,
  );
}

export async function measureExport(): Promise<{ measured: MeasuredFigure[]; results: BenchResult[] }> {
  const firestorePort = await freePort();
  const firestore = await startFirestore({ port: firestorePort });
  const storage = await startStorageEmulator({ port: await freePort(), autoCreateBuckets: true });
  process.env.FIRESTORE_EMULATOR_HOST = `${firestore.host}:${firestorePort}`;
  const project = (process.env.GCLOUD_PROJECT ??= "demo-alpvault");
  process.env.METADATA_SERVER_DETECTION ??= "none";
  try {
    const { readExport } = await import("../../functions/src/export/repo");
    const setting = await setUp(storage.url, project);
    const { expected, total } = await seed(setting);
    const job = await createJob(setting);
    const report = await runWorker(await buildWorker(), setting, job.exportId);
    if (report.error) throw new Error(report.error);
    const finished = await readExport(setting.scope, job.exportId);
    console.log(
      `recovery bench: export ${finished?.state} after ${report.deliveries} deliveries in ${report.seconds.toFixed(0)} s, ` +
        `${((finished?.progress.bytes ?? 0) / MiB).toFixed(0)} MiB, peak RSS ${(report.peakRssBytes / MiB).toFixed(0)} MiB`,
    );
    const { read: index, identical } = await compareMbox(setting, job.objectName, expected);
    const note = `${identical} of ${expected.length} messages identical (${index} read); ${(total / MiB).toFixed(0)} MiB of messages`;
    return {
      measured: [
        {
          id: "export-2gib-peak-rss-mib",
          value: report.peakRssBytes / MiB,
          note: `worker process; ${report.deliveries} deliveries of ${BUDGET_MS / 1000} s budget, ${report.seconds.toFixed(0)} s in all`,
        },
        {
          id: "export-2gib-identical-fraction",
          value:
            finished?.state === "succeeded" && index === expected.length ? identical / expected.length : 0,
          note,
        },
        {
          id: "export-2gib-deliveries",
          value: report.deliveries,
          note: `state ${finished?.state}; ${(total / MiB / report.seconds).toFixed(1)} MiB/s`,
        },
      ],
      results: [],
    };
  } finally {
    await storage.stop();
    await firestore.stop();
  }
}
