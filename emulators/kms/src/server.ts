/**
 * The KMS emulator's server: Cloud KMS v1's REST/JSON API (what `@google-cloud/kms` speaks with
 * `fallback: true`) and the emulator-only admin API (`/emulator/v1`) on one HTTP port.
 *
 * State: nothing is seeded; tests create their key rings and keys through the API. With a data folder it
 * restores `<dataDir>/kms/state.json.gz` at start and `stop({ save: true })` writes it back (key material
 * included: it is an emulator's throw-away material, never a real key).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { KmsEmulator } from "./emulator";
import type { KmsSnapshot } from "./store";

export interface RunningKmsEmulator {
  /** `http://host:port` */
  url: string;
  /** `host:port`, the form `KMS_EMULATOR_HOST` takes. */
  hostPort: string;
  emulator: KmsEmulator;
  stop(options?: { save?: boolean }): Promise<void>;
}

export interface KmsEmulatorOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
  /** Restore state from here (`kms/state.json.gz`) and save it back on `stop({ save: true })`. */
  dataDir?: string;
}

export function stateFile(dataDir: string): string {
  return join(dataDir, "kms", "state.json.gz");
}

/** Writes the state back; an empty emulator leaves no file (the seed carries no KMS state). */
function saveState(emulator: KmsEmulator, file: string): void {
  const snapshot = emulator.store.snapshot();
  if (snapshot.keyRings.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, gzipSync(JSON.stringify(snapshot)), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

export async function startKmsEmulator(options: KmsEmulatorOptions): Promise<RunningKmsEmulator> {
  const host = options.host ?? "127.0.0.1";
  const emulator = new KmsEmulator();
  const file = options.dataDir ? stateFile(options.dataDir) : undefined;
  if (file && existsSync(file)) {
    emulator.store.restore(JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as KmsSnapshot);
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
    hostPort: `${host}:${port}`,
    emulator,
    stop: (stopOptions = {}) =>
      new Promise<void>((resolve) => {
        if (stopOptions.save && file) saveState(emulator, file);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
