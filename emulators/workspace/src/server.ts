/**
 * The Workspace emulator's server: Google's OAuth2 token endpoint, Admin SDK Directory, Marketplace
 * licence, Gmail v1 and Drive v3 on one HTTP port, plus the emulator-only admin API (`/emulator/v1`).
 *
 * State: at start it restores `<dataDir>/workspace/state.json.gz` when there is one, otherwise it generates
 * the organisation of the requested profile from its seed; `stop({ save: true })` writes the state back.
 * The service-account key clients use is written to `keyFile` at every start (a new key each time).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SnapshotFile, listen, type Clock } from "../../kit/src/index";
import { createWorkspaceEmulator } from "./api";
import type { ServiceAccountKeyPair } from "./auth";
import type { EmulatorSnapshot, WorkspaceEmulator } from "./emulator";
import { generateOrganisation, type ProfileName } from "./generator/generate";
import type { LatencySettings } from "./latency";
import type { QuotaSettings } from "./quota-models";

export interface RunningWorkspaceEmulator {
  url: string;
  emulator: WorkspaceEmulator;
  /** Where the service-account key JSON was written, when `keyFile` was given. */
  keyFile?: string;
  stop(options?: { save?: boolean }): Promise<void>;
}

export interface WorkspaceEmulatorOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
  /** Restore state from here (`workspace/state.json.gz`) and save it back on `stop({ save: true })`. */
  dataDir?: string;
  /** What to generate when there is no saved state: `demo` (default), `bench`, or `empty`. */
  profile?: ProfileName | "empty";
  seed?: number;
  /** Add the awkward Drive cases to the generated organisation (see `planAwkwardDrive`). */
  awkwardDrive?: boolean;
  /** Add the awkward mail cases: a Drive-only user (Gmail off) and a large message (see `PlanOptions`). */
  awkwardMail?: boolean;
  /** Size of the awkward Drive cases' huge generated file (default 3 GiB). */
  hugeFileBytes?: number;
  /** Write the service-account key JSON here. */
  keyFile?: string;
  /** The Google Cloud project of the service account (default `demo-alpvault`). */
  projectId?: string;
  quota?: Partial<QuotaSettings>;
  /** The latency model: on by default, as Google's answers take time; `{ enabled: false }` for speed. */
  latency?: Partial<LatencySettings>;
  /** What Google's time (latency, bandwidth, delays, quotas) runs on: the system's unless a test's. */
  clock?: Clock;
  /** The service account's key pair: a new one at every start unless given (tests share one). */
  keyPair?: ServiceAccountKeyPair;
}

export function stateFile(dataDir: string): string {
  return join(dataDir, "workspace", "state.json.gz");
}

export async function startWorkspaceEmulator(
  options: WorkspaceEmulatorOptions,
): Promise<RunningWorkspaceEmulator> {
  // The emulator needs the port (for its URLs) before it exists; until then connections are refused.
  const server = await listen({ port: options.port, host: options.host });
  const { url } = server;
  const emulator = createWorkspaceEmulator({
    baseUrl: url,
    quota: options.quota,
    latency: options.latency,
    projectId: options.projectId,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.keyPair ? { keyPair: options.keyPair } : {}),
  });
  // Large Drive uploads live on disk: beside the state with a data folder, else in a temporary folder.
  if (options.dataDir) emulator.drive.useContentDir(join(options.dataDir, "workspace", "drive-content"));

  const state = options.dataDir ? new SnapshotFile<EmulatorSnapshot>(stateFile(options.dataDir)) : undefined;
  const saved = state?.load();
  if (saved) emulator.restore(saved);
  else if (options.profile !== "empty")
    generateOrganisation(emulator, {
      profile: options.profile ?? "demo",
      seed: options.seed,
      ...(options.awkwardDrive ? { awkwardDrive: true } : {}),
      ...(options.awkwardMail ? { awkwardMail: true } : {}),
      ...(options.hugeFileBytes !== undefined ? { hugeFileBytes: options.hugeFileBytes } : {}),
    });
  // Checksums of generated Drive content are known before the first request.
  await emulator.drive.settled();

  if (options.keyFile) {
    mkdirSync(dirname(options.keyFile), { recursive: true });
    writeFileSync(options.keyFile, JSON.stringify(emulator.oauth.serviceAccount, null, 2), { mode: 0o600 });
  }
  server.serve(emulator.handle);

  return {
    url,
    emulator,
    keyFile: options.keyFile,
    stop: async (stopOptions = {}) => {
      if (stopOptions.save) state?.save(emulator.snapshot());
      await server.close();
      emulator.drive.dispose();
    },
  };
}
