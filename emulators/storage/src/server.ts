/**
 * The Cloud Storage emulator's server: the JSON API v1 (what `@google-cloud/storage` speaks) and the
 * emulator-only admin API (`/emulator/v1`) on one HTTP port.
 *
 * State: metadata in memory, object bytes in files; nothing is seeded. With a state file the object files
 * live in `objects/` beside it: the emulator restores the state at start (and removes object files it does
 * not name), and `stop({ save: true })` writes the metadata back (an emulator without buckets leaves no
 * file). Without one, the files go to a temporary directory removed at `stop()`.
 */
import type { SigningAccount } from "./signed-urls";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { StorageEmulator } from "./emulator";
import type { StorageSnapshot } from "./store";

export interface RunningStorageEmulator {
  /** `http://host:port`: the client's `apiEndpoint`, and the form `STORAGE_EMULATOR_HOST` takes. */
  url: string;
  emulator: StorageEmulator;
  stop(options?: { save?: boolean }): Promise<void>;
}

export interface StartStorageEmulatorOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
  /**
   * Restore state from this file (gzipped JSON: metadata, each object naming its file) at start and save it
   * back on `stop({ save: true })`; object files live in `objects/` beside it (`storageBlobDir`).
   */
  stateFile?: string;
  /** Create buckets the first time a request names them instead of answering 404 (the local stack). */
  autoCreateBuckets?: boolean;
  /** Service accounts whose V4 signed URLs are accepted (see signed-urls.ts). */
  signingAccounts?: () => SigningAccount[];
}

/** Where the local stack keeps the emulator's state inside its data folder. */
export function storageStateFile(dataDir: string): string {
  return join(dataDir, "storage", "state.json.gz");
}

/** Where object files live beside a state file. */
export function storageBlobDir(stateFile: string): string {
  return join(dirname(stateFile), "objects");
}

/**
 * Writes the metadata (the object files are already in place), then lets the store remove the files of
 * objects replaced or deleted since the last save: until the new state file is in place, the old one may
 * still name them.
 */
function saveState(emulator: StorageEmulator, file: string): void {
  const snapshot = emulator.store.snapshot();
  if (snapshot.buckets.length === 0) {
    rmSync(file, { force: true });
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, gzipSync(JSON.stringify(snapshot)), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }
  emulator.store.saved();
}

export async function startStorageEmulator(
  options: StartStorageEmulatorOptions,
): Promise<RunningStorageEmulator> {
  const host = options.host ?? "127.0.0.1";
  const file = options.stateFile;
  const emulator = new StorageEmulator({
    autoCreateBuckets: options.autoCreateBuckets,
    signingAccounts: options.signingAccounts,
    blobDir: file ? storageBlobDir(file) : undefined,
  });
  if (file) {
    if (existsSync(file)) {
      emulator.store.restore(JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as StorageSnapshot);
    }
    // Files of objects written after the last save (or of a crash's unfinished uploads) are nobody's.
    emulator.store.removeOrphanBlobs();
  }
  const server: Server = createServer((request, response) => void emulator.handle(request, response));
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    emulator.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    emulator,
    stop: (stopOptions = {}) =>
      new Promise<void>((resolve) => {
        if (stopOptions.save && file) saveState(emulator, file);
        server.close(() => resolve());
        server.closeAllConnections();
        emulator.close();
      }),
  };
}
