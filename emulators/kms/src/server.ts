/**
 * The KMS emulator's server: Cloud KMS v1's REST/JSON API (what `@google-cloud/kms` speaks with
 * `fallback: true`) and the emulator-only admin API (`/emulator/v1`) on one HTTP port.
 *
 * State: nothing is seeded; tests create their key rings and keys through the API. With a data folder it
 * restores `<dataDir>/kms/state.json.gz` at start and `stop({ save: true })` writes it back (key material
 * included: it is an emulator's throw-away material, never a real key).
 */
import { join } from "node:path";
import { SnapshotFile, listen } from "../../kit/src/index";
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

export async function startKmsEmulator(options: KmsEmulatorOptions): Promise<RunningKmsEmulator> {
  const emulator = new KmsEmulator();
  const state = options.dataDir ? new SnapshotFile<KmsSnapshot>(stateFile(options.dataDir)) : undefined;
  const saved = state?.load();
  if (saved) emulator.store.restore(saved);
  const server = await listen({ port: options.port, host: options.host });
  server.serve(emulator.handle);
  return {
    url: server.url,
    hostPort: `${server.host}:${server.port}`,
    emulator,
    stop: async (stopOptions = {}) => {
      if (stopOptions.save && state) {
        const snapshot = emulator.store.snapshot();
        // An empty emulator leaves no file (the seed carries no KMS state).
        state.save(snapshot.keyRings.length > 0 ? snapshot : undefined);
      }
      await server.close();
    },
  };
}
