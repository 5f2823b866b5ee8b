/**
 * The Cloud Storage emulator's server: the JSON API v1 (what `@google-cloud/storage` speaks) and the
 * emulator-only admin API (`/emulator/v1`) on one HTTP port.
 *
 * State: in memory; nothing is seeded. With a state file it restores it at start and
 * `stop({ save: true })` writes it back (an emulator without buckets leaves no file).
 */
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
  /** Restore state from this file (gzipped JSON) at start and save it back on `stop({ save: true })`. */
  stateFile?: string;
  /** Create buckets the first time a request names them instead of answering 404 (the local stack). */
  autoCreateBuckets?: boolean;
}

/** Where the local stack keeps the emulator's state inside its data folder. */
export function storageStateFile(dataDir: string): string {
  return join(dataDir, "storage", "state.json.gz");
}

function saveState(emulator: StorageEmulator, file: string): void {
  const snapshot = emulator.store.snapshot();
  if (snapshot.buckets.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, gzipSync(JSON.stringify(snapshot)), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

export async function startStorageEmulator(
  options: StartStorageEmulatorOptions,
): Promise<RunningStorageEmulator> {
  const host = options.host ?? "127.0.0.1";
  const emulator = new StorageEmulator({ autoCreateBuckets: options.autoCreateBuckets });
  const file = options.stateFile;
  if (file && existsSync(file)) {
    emulator.store.restore(JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as StorageSnapshot);
  }
  const server: Server = createServer((request, response) => void emulator.handle(request, response));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
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
      }),
  };
}
