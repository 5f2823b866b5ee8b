/**
 * Section "large-file": the resident memory of a process backing up one large Drive file through
 * `DriveSource` and `runBackup` (download stream, chunker, chunk encoder, manifest object).
 *
 * Only the engine is in this process: the Workspace emulator keeps a file's content as one Buffer, so it
 * runs in a process of its own (`engine-large-file-emulator.ts`), and the blob store keeps object names
 * and sizes but no bodies (Cloud Storage holds them in production). RSS is sampled every 50 ms (on this
 * process's event loop, so a long synchronous step delays a sample); the figure is the absolute peak, the
 * note gives the baseline taken just before the run. 2 GB is tried first, then smaller sizes if the
 * machine cannot hold it; the note says which size was measured.
 */
import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";

import { drive_v3 } from "@googleapis/drive";

import { emulatorJwt } from "../../emulators/workspace/src/client";
import { meteredCaller } from "../../functions/src/backup/google/caller";
import { googleClientOptions } from "../../functions/src/backup/google/client-options";
import { quotaAwareCaller } from "../../functions/src/backup/google/quota-caller";
import { DriveSource } from "../../functions/src/backup/sources/drive-source";
import type { MeasuredFigure } from "./engine-child";
import type { LargeFileEmulator } from "./engine-large-file-emulator";
import { BackupStore, DiscardingBlobStore, peakRss } from "./engine-store";

/**
 * 2 GB (decimal) first: the emulator hashes a file's content in one call, which Node limits to 2³¹ − 1
 * bytes, so it cannot hold a 2 GiB file.
 */
const SIZES = [2e9, 2 ** 30, 2 ** 29];
const TIME_SCALE = 30;
const DRIVE_SCOPE = "https://www.googleapis.com/auth/drive";
const MIB = 2 ** 20;

/** Forks the emulator process and waits until it serves the file. */
function startEmulator(bytes: number): Promise<{ process: ChildProcess; file: LargeFileEmulator }> {
  const child = fork(join(__dirname, "engine-large-file-emulator.ts"), [String(bytes), String(TIME_SCALE)]);
  return new Promise((resolve, reject) => {
    child.once("message", (message: LargeFileEmulator | { error: string }) => {
      if ("error" in message) {
        child.kill();
        reject(new Error(`the emulator could not hold the file: ${message.error}`));
      } else resolve({ process: child, file: message });
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`the emulator's process ended (${signal ?? code})`)),
    );
  });
}

function stopEmulator(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill();
  });
}

async function measure(bytes: number): Promise<MeasuredFigure> {
  const emulator = await startEmulator(bytes);
  try {
    const { url, key, user, fileId } = emulator.file;
    const auth = emulatorJwt(url, key, { subject: user, scopes: [DRIVE_SCOPE] });
    const caller = meteredCaller(quotaAwareCaller({ minuteMs: 60_000 / TIME_SCALE }));
    const source = new DriveSource({
      drive: new drive_v3.Drive(googleClientOptions({ auth, rootUrl: `${url}/` })),
      resource: { kind: "user", email: user },
      caller,
      accessToken: async () => (await auth.getAccessToken()).token ?? "",
    });
    const store = new BackupStore(new DiscardingBlobStore());
    await auth.getAccessToken();

    const resourceId = `drive:${user}`;
    const started = performance.now();
    const memory = await peakRss(50, () => store.backup(resourceId, source, caller.usage));
    const { value: run, baselineBytes, peakBytes, samples, longestGapMs } = memory;
    const seconds = (performance.now() - started) / 1000;
    const version = store.catalog.versions(resourceId)[0];
    if (run.result.progress.bytes !== bytes || version?.itemKey !== fileId) {
      throw new Error(`the run read ${run.result.progress.bytes} of ${bytes} bytes`);
    }
    const size = bytes % 1e9 === 0 ? `${bytes / 1e9} GB` : `${bytes / MIB} MiB`;
    return {
      id: "large-file-peak-rss",
      value: peakBytes / MIB,
      note:
        `one Drive file of ${size} random bytes; peak RSS ` +
        `${(peakBytes / MIB).toFixed(0)} MiB, baseline before the run ${(baselineBytes / MIB).toFixed(0)} MiB ` +
        `(Node, tsx, the clients), so +${((peakBytes - baselineBytes) / MIB).toFixed(0)} MiB while backing up ` +
        `(${samples} samples, every 50 ms, the longest gap ${longestGapMs.toFixed(0)} ms); ` +
        `${seconds.toFixed(1)} s (${(bytes / 1e6 / seconds).toFixed(0)} MB/s); ` +
        `${store.blobStore.objectsWritten} objects written (${(store.blobStore.bytesWritten / MIB).toFixed(0)} MiB, ` +
        `${"manifestObject" in version ? "chunk list in a manifest object" : "chunk list inline"}); ` +
        `the emulator ran in its own process and the blob store kept no bodies, so this is the engine's memory`,
    };
  } finally {
    await stopEmulator(emulator.process);
  }
}

export async function measureLargeFile(): Promise<MeasuredFigure[]> {
  const failures: string[] = [];
  for (const bytes of SIZES) {
    try {
      const figure = await measure(bytes);
      if (failures.length > 0) figure.note += `; larger sizes failed here: ${failures.join("; ")}`;
      return [figure];
    } catch (error) {
      failures.push(`${bytes / MIB} MiB: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no size could be measured: ${failures.join("; ")}`);
}
