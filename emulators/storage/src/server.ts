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
import { dirname, join } from "node:path";
import { SnapshotFile, listen, type HttpServer } from "../../kit/src/index";
import { StorageEmulator } from "./emulator";
import { type AutoCreateBuckets, type StorageSnapshot } from "./store-model";

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
  /**
   * Create buckets the first time a request names them instead of answering 404 (the local stack); a
   * function gives such a bucket its location (`AutoCreateBuckets`).
   */
  autoCreateBuckets?: AutoCreateBuckets;
  /** Service accounts whose V4 signed URLs are accepted (see signed-urls.ts). */
  signingAccounts?: () => SigningAccount[];
  /**
   * The Cloud KMS emulator's URL (`http://127.0.0.1:8091`, `RunningKmsEmulator.url`) that wraps and unwraps
   * the data keys of objects under a customer-managed key (`kmsKeyName`); without it such uploads fail.
   */
  kmsEndpoint?: string;
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
 * Writes the metadata (the object files are already in place; an emulator without buckets leaves no file),
 * then lets the store remove the files of objects replaced or deleted since the last save: until the new
 * state file is in place, the old one may still name them.
 */
function saveState(emulator: StorageEmulator, state: SnapshotFile<StorageSnapshot>): void {
  const snapshot = emulator.store.snapshot();
  state.save(snapshot.buckets.length > 0 ? snapshot : undefined);
  emulator.store.saved();
}

export async function startStorageEmulator(
  options: StartStorageEmulatorOptions,
): Promise<RunningStorageEmulator> {
  const file = options.stateFile;
  const emulator = new StorageEmulator({
    autoCreateBuckets: options.autoCreateBuckets,
    signingAccounts: options.signingAccounts,
    kmsEndpoint: options.kmsEndpoint,
    blobDir: file ? storageBlobDir(file) : undefined,
  });
  const state = file ? new SnapshotFile<StorageSnapshot>(file) : undefined;
  if (state) {
    const saved = state.load();
    if (saved) emulator.store.restore(saved);
    // Files of objects written after the last save (or of a crash's unfinished uploads) are nobody's.
    emulator.store.removeOrphanBlobs();
  }
  let server: HttpServer;
  try {
    server = await listen({ port: options.port, host: options.host });
  } catch (error) {
    emulator.close();
    throw error;
  }
  server.serve(emulator.handle);
  return {
    url: server.url,
    emulator,
    stop: async (stopOptions = {}) => {
      if (stopOptions.save && state) saveState(emulator, state);
      const closed = server.close();
      emulator.close();
      await closed;
    },
  };
}
