/**
 * Section "large-file" (issue 14): a 3 GiB Drive file backs up across task deliveries, resuming by `Range`,
 * and restores byte for byte, with the engine's resident memory sampled on both ways.
 *
 * - The Workspace emulator runs in a process of its own (`engine-large-file-emulator.ts`, quotas on, the
 *   latency model on: Drive downloads at 32 MiB/s per connection, uploads at 16 MiB/s) and serves one file
 *   of exactly 3 GiB generated from a seed, streamed with Range; its md5Checksum is Drive's.
 * - Backup: the real engine (`DriveSource`, `runBackup`, `quotaAwareCaller`) with a task deadline of a
 *   third of the time one pass takes at the emulator's download bandwidth. Each delivery that answers
 *   "continue" is followed by another on the same run with a fresh source and a fresh deadline, as the
 *   worker re-enqueues its task. A source wrapper counts what each delivery asked Drive for (whole reads,
 *   Range reads and their offsets) and the bytes it yielded, so a delivery that read anything twice shows.
 * - Objects go to a blob store in a temporary folder on disk (bodies kept, out of this process's memory).
 * - Restore, in a process of its own (`engine-large-file-restore.ts`) as a recovery task runs apart from the
 *   backup: the engine's `DriveRestorer` uploads the version (resumable, 8 MiB pieces) from its chunks
 *   (`versionChunks`) into the same user's My Drive; the emulator spools the upload to disk and computes its
 *   md5. The restored file is identical when Drive's md5Checksum and size of the restored file, and the md5
 *   of the bytes the restorer sent, equal the original's.
 * - RSS is sampled every 50 ms in the backup's process (this one, the engine alone) and in the restore's.
 *
 * The temporary folder (the objects and the emulator's upload spool, about 6 GiB) is removed when the section
 * ends, also when it fails or is interrupted.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";

import { drive_v3 } from "@googleapis/drive";

import { emulatorJwt } from "../../emulators/workspace/src/index";
import { MAX_CHUNK_SIZE } from "../../functions/src/engine/format/chunker";
import { newDataKey } from "../../functions/src/engine/format/keys";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { DriveSource } from "../../functions/src/engine/drive/source";
import type { MeasuredFigure } from "./types";
import { CountingSource } from "./engine-counting-source";
import type { LargeFileEmulator } from "./engine-large-file-emulator";
import type { RestoreOrder, RestoreReport } from "./engine-large-file-restore";
import {
  CountingBlobStore,
  DiskBlobStore,
  ORGANIZATION_ID,
  peakRss,
  type MemoryAtPeak,
} from "./engine-store";

const MIB = 2 ** 20;
const GIB = 2 ** 30;
/** Exactly 3 GiB. */
const FILE_BYTES = 3 * GIB;
const SEED = "engine-bench-large-file";
const TIME_SCALE = 30;
const DRIVE_SCOPE = "https://www.googleapis.com/auth/drive";
/** The emulator's download bandwidth per connection for `drive.files.download` (its latency model). */
const DOWNLOAD_BYTES_PER_SECOND = 32 * MIB;
/** One pass over the file at that bandwidth (96 s), and the task deadline: a third of it. */
const SINGLE_PASS_MS = (FILE_BYTES / DOWNLOAD_BYTES_PER_SECOND) * 1000;
const DELIVERY_MS = Math.round(SINGLE_PASS_MS / 3);
/** A run that needs more deliveries than this is not resuming. */
const MAX_DELIVERIES = 20;
/** The runner stops at a chunk-group boundary: a delivery reads at most one group (16 chunks) it does not keep. */
const CHUNK_GROUP_BYTES = 16 * MAX_CHUNK_SIZE;
/** The objects (the file's size and a little) plus the emulator's spool of the restored upload, plus room. */
const DISK_NEEDED_BYTES = 2 * FILE_BYTES + GIB;

/** What one delivery asked Drive for. */
interface Delivery {
  /** The offset the run had saved when the delivery began (0: the file's start). */
  from: number;
  /** Where the run stood when the delivery ended (the file's size once it is stored). */
  to: number;
  wholeReads: number;
  /** Offsets of the Range reads. */
  ranges: number[];
  /** Bytes the source yielded. */
  bytes: number;
  ms: number;
  outcome: string;
}

/** Forks the emulator process and waits until it serves the file. */
function startEmulator(dataDir: string): Promise<{ process: ChildProcess; file: LargeFileEmulator }> {
  const child = fork(join(__dirname, "engine-large-file-emulator.ts"), [
    dataDir,
    String(FILE_BYTES),
    SEED,
    String(TIME_SCALE),
  ]);
  return new Promise((resolve, reject) => {
    child.once("message", (message: LargeFileEmulator | { error: string }) => {
      if ("error" in message) {
        child.kill();
        reject(new Error(`the emulator could not serve the file: ${message.error}`));
      } else resolve({ process: child, file: message });
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`the emulator's process ended (${signal ?? code})`)),
    );
  });
}

/** Runs the restore in a process of its own and answers its report. */
function restoreInChild(order: RestoreOrder): Promise<RestoreReport> {
  const child = fork(join(__dirname, "engine-large-file-restore.ts"));
  return new Promise((resolve, reject) => {
    child.once("message", (message: RestoreReport | { error: string }) => {
      if ("error" in message) reject(new Error(`the restore failed: ${message.error}`));
      else resolve(message);
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`the restore's process ended (${signal ?? code}) without a report`)),
    );
    child.send(order);
  });
}

/** Asks the emulator to stop (it removes nothing of ours); kills it when it does not within 10 s. */
function stopEmulator(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill(), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send("stop");
    else child.kill();
  });
}

const mib = (bytes: number) => (bytes / MIB).toFixed(0);
const mb = (bytes: number) => (bytes / 1e6).toFixed(0);

/** What the backup works with: the emulator's Drive as its user, a catalog, a blob store on disk, a key. */
interface Setting {
  drive: drive_v3.Drive;
  user: string;
  caller: ReturnType<typeof meteredCaller>;
  accessToken: () => Promise<string>;
  catalog: MemoryCatalog;
  blobStore: CountingBlobStore;
  dataKey: ReturnType<typeof newDataKey>;
  run: { runId: string; resourceId: string };
}

/** One delivery: a fresh source and a fresh deadline on the same run, as the worker re-enqueues its task. */
async function deliver(setting: Setting): Promise<{ delivery: Delivery; succeeded: boolean }> {
  const { drive, user, caller, accessToken, catalog, blobStore, dataKey, run } = setting;
  const from = catalog.run(run.runId)?.partial?.offset ?? 0;
  const source = new CountingSource(
    new DriveSource({ drive, resource: { kind: "user", email: user }, caller, accessToken }),
  );
  const started = performance.now();
  const result = await runBackup({
    run,
    source,
    blobStore,
    catalog,
    dataKey,
    organizationId: ORGANIZATION_ID,
    deadline: Date.now() + DELIVERY_MS,
    usage: caller.usage,
  });
  const delivery: Delivery = {
    from,
    to: catalog.run(run.runId)?.partial?.offset ?? (result.outcome === "succeeded" ? FILE_BYTES : 0),
    wholeReads: source.wholeReads,
    ranges: source.ranges,
    bytes: source.bytes,
    ms: performance.now() - started,
    outcome: result.outcome,
  };
  if (result.outcome === "succeeded") {
    if (result.itemErrors > 0) throw new Error(`the run had ${result.itemErrors} item errors`);
    return { delivery, succeeded: true };
  }
  if (result.outcome !== "continue") {
    throw new Error(`a delivery ended "${result.outcome}": ${JSON.stringify(result)}`);
  }
  return { delivery, succeeded: false };
}

/** Backup: deliveries with a deadline each, until the run succeeds; with the backup's memory. */
async function backUp(setting: Setting) {
  const deliveries: Delivery[] = [];
  const backupStarted = performance.now();
  const backup = await peakRss(50, async () => {
    for (;;) {
      if (deliveries.length >= MAX_DELIVERIES) {
        throw new Error(`the run did not finish in ${MAX_DELIVERIES} deliveries`);
      }
      const { delivery, succeeded } = await deliver(setting);
      deliveries.push(delivery);
      if (succeeded) return;
    }
  });
  return { deliveries, backup, backupSeconds: (performance.now() - backupStarted) / 1000 };
}

/** Later deliveries that resumed: nothing read whole and one Range from where the previous one stopped. */
const resumedCount = (deliveries: Delivery[]): number =>
  deliveries.filter(
    (d, i) =>
      i > 0 &&
      d.from > 0 &&
      d.from === deliveries[i - 1]?.to &&
      d.wholeReads === 0 &&
      d.ranges.length === 1 &&
      d.ranges[0] === d.from,
  ).length;

const deliveryListOf = (deliveries: Delivery[]): string =>
  deliveries
    .map(
      (d) =>
        `${d.wholeReads > 0 ? "whole read" : `Range bytes=${d.ranges.join(",")}-`} ${mib(d.from)}→${mib(d.to)} MiB ` +
        `(${mib(d.bytes)} MiB read, ${(d.ms / 1000).toFixed(1)} s, ${d.outcome})`,
    )
    .join("; ");

/** How the memory of one way went, for a figure's note. */
const rssNote = (
  memory: {
    baselineBytes: number;
    peakBytes: number;
    atPeak: MemoryAtPeak;
    samples: number;
    longestGapMs: number;
  },
  what: string,
) =>
  `peak ${mib(memory.peakBytes)} MiB, baseline before ${what} ${mib(memory.baselineBytes)} MiB ` +
  `(Node, tsx, the clients; +${mib(memory.peakBytes - memory.baselineBytes)} MiB); at the peak V8's heap ` +
  `held ${mib(memory.atPeak.heapUsedBytes)} MiB used of ${mib(memory.atPeak.heapTotalBytes)} MiB and ` +
  `Buffers ${mib(memory.atPeak.arrayBuffersBytes)} MiB; ${memory.samples} samples every 50 ms, the ` +
  `longest gap ${memory.longestGapMs.toFixed(0)} ms`;

/** The section's figures from the backup and the restore. */
function figures(
  { deliveries, backup, backupSeconds }: Awaited<ReturnType<typeof backUp>>,
  blobStore: CountingBlobStore,
  restored: RestoreReport,
  originalMd5: string,
): MeasuredFigure[] {
  const downloaded = deliveries.reduce((sum, d) => sum + d.bytes, 0);
  const resumed = resumedCount(deliveries);
  const deliveryList = deliveryListOf(deliveries);
  const identical =
    restored.md5Checksum === originalMd5 &&
    restored.size === FILE_BYTES &&
    restored.sentMd5 === originalMd5 &&
    restored.sentBytes === FILE_BYTES;
  const machine = `${availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}`;
  return [
    {
      id: "large-file-deliveries",
      value: resumed + 1,
      note:
        `one Drive file of 3 GiB (${FILE_BYTES} bytes, generated from a seed) backed up in ` +
        `${deliveries.length} deliveries, ${resumed} of the later ones resumed by one Range read from where ` +
        `the previous stopped (the value counts the first and those); task deadline ${DELIVERY_MS / 1000} s, ` +
        `a third of one pass at the emulator's 32 MiB/s download bandwidth (latency model on, unscaled; ` +
        `quotas on, 2026 model, quota clock ×${TIME_SCALE}); ${deliveryList}; backup ` +
        `${backupSeconds.toFixed(0)} s, ${(FILE_BYTES / 1e6 / backupSeconds).toFixed(1)} MB/s; ` +
        `${blobStore.objectsWritten} objects written (${mib(blobStore.bytesWritten)} MiB) to disk; ${machine}`,
    },
    {
      id: "large-file-downloaded-ratio",
      value: downloaded / FILE_BYTES,
      note:
        `${downloaded} bytes yielded by Drive's downloads for a file of ${FILE_BYTES}: ` +
        `${downloaded - FILE_BYTES} read again after deadlines; the runner stops at a chunk-group boundary, ` +
        `so at most ${mib(CHUNK_GROUP_BYTES)} MiB a delivery (here ${mib(deliveries.length * CHUNK_GROUP_BYTES)} MiB ` +
        `in all, ratio ${(1 + (deliveries.length * CHUNK_GROUP_BYTES) / FILE_BYTES).toFixed(4)})`,
    },
    {
      id: "large-file-peak-rss",
      value: backup.peakBytes / MIB,
      note:
        `backup across ${deliveries.length} deliveries: ${rssNote(backup, "the first delivery")}; the ` +
        `engine alone in its process (the emulator in another, objects on disk)`,
    },
    {
      id: "large-file-restored-identical",
      value: identical ? 1 : 0,
      note:
        `restored with DriveRestorer.uploadResumable (8 MiB pieces, the emulator's 16 MiB/s upload ` +
        `bandwidth) from the version's chunks read from disk, into a new folder of the user's My Drive; ` +
        `Drive's md5Checksum of the restored file ${restored.md5Checksum}, size ${restored.size}; md5 of the ` +
        `bytes sent ${restored.sentMd5} (${restored.sentBytes} bytes); the original's md5Checksum ` +
        `${originalMd5}; restore ${restored.seconds.toFixed(0)} s, ` +
        `${(FILE_BYTES / 1e6 / restored.seconds).toFixed(1)} MB/s`,
    },
    {
      id: "large-file-restore-peak-rss",
      value: restored.peakBytes / MIB,
      note:
        `restore of the 3 GiB version in a process of its own, as a recovery task runs apart from the ` +
        `backup: ${rssNote(restored, "the restore")}`,
    },
  ];
}

async function measure(folder: string): Promise<MeasuredFigure[]> {
  const emulator = await startEmulator(join(folder, "emulator"));
  try {
    const { url, key, user, fileId, md5: originalMd5 } = emulator.file;
    const auth = emulatorJwt(url, key, { subject: user, scopes: [DRIVE_SCOPE] });
    const caller = meteredCaller(quotaAwareCaller({ minuteMs: 60_000 / TIME_SCALE }));
    const drive = new drive_v3.Drive(googleClientOptions({ auth, rootUrl: `${url}/` }));
    const accessToken = async () => (await auth.getAccessToken()).token ?? "";
    await accessToken();

    const catalog = new MemoryCatalog();
    const objectsFolder = join(folder, "objects");
    const blobStore = new CountingBlobStore(new DiskBlobStore(objectsFolder));
    const dataKey = newDataKey();
    const resourceId = `drive:${user}`;
    const run = { runId: "run-large-file", resourceId };
    catalog.createRun({ ...run, cursor: null });

    const backedUp = await backUp({ drive, user, caller, accessToken, catalog, blobStore, dataKey, run });
    const item = catalog.item(resourceId, fileId);
    if (!item || item.current.size !== FILE_BYTES) {
      throw new Error(`the run stored ${item?.current.size ?? "nothing"} of the file's ${FILE_BYTES} bytes`);
    }

    // Restore, in a process of its own: the version's chunks uploaded by the Drive restorer.
    const restored = await restoreInChild({
      url,
      key,
      user,
      timeScale: TIME_SCALE,
      dataKey: { id: dataKey.id, key: dataKey.key.toString("base64") },
      objects: objectsFolder,
      version: item.current,
    });
    return figures(backedUp, blobStore, restored, originalMd5);
  } finally {
    await stopEmulator(emulator.process);
  }
}

export async function measureLargeFile(): Promise<MeasuredFigure[]> {
  const { bavail, bsize } = statfsSync(tmpdir());
  if (bavail * bsize < DISK_NEEDED_BYTES) {
    throw new Error(
      `${mb(bavail * bsize)} MB free in ${tmpdir()}, ${mb(DISK_NEEDED_BYTES)} MB needed (objects and the restored upload)`,
    );
  }
  const folder = mkdtempSync(join(tmpdir(), "alpvault-bench-large-file-"));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  // Interrupted (Ctrl-C, a kill), the process still removes its gigabytes.
  const interrupted = (signal: NodeJS.Signals) => {
    remove();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  process.once("exit", remove);
  try {
    return await measure(folder);
  } finally {
    remove();
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    process.off("exit", remove);
  }
}
