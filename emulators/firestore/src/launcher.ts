/**
 * Starts a local Firestore: the official emulator when it can run here (Java >= 21 on PATH and the
 * emulator jar in firebase-tools' cache), otherwise our Node emulator. Both speak the same gRPC API,
 * so clients only need FIRESTORE_EMULATOR_HOST=<host>:<port>.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { connect } from "node:net";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

import { assertPortFree, NodeFirestoreEmulator } from "./node-emulator";
import type { ReadStatsSnapshot } from "./stats";

export interface RunningFirestore {
  kind: "official" | "node";
  host: string;
  port: number;
  stop(options?: { save?: boolean }): Promise<void>;
  /**
   * Reads counted per request and in total, as Firestore bills them (our emulator only; the official
   * one does not count). `reset()` starts the count again.
   */
  reads?: { snapshot(): ReadStatsSnapshot; reset(): void };
}

export interface StartFirestoreOptions {
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Import state from here at start; `stop({ save: true })` writes it back. */
  dataDir?: string;
  projectId?: string;
  /** Security rules for the official emulator (ours refuses every non-admin caller instead). */
  rulesFile?: string;
  /**
   * Index definitions (`firestore.indexes.json` files) our emulator serves queries from; default the
   * project's (DEFAULT_INDEXES_FILE). The official emulator does not enforce indexes.
   */
  indexesFiles?: readonly string[];
  /**
   * Serve a query that needs an undeclared composite index instead of refusing it, for ad-hoc use
   * (default: FIRESTORE_EMULATOR_RELAXED_INDEXES=1 in the environment). Tests and benchmarks run strict.
   */
  relaxedIndexes?: boolean;
  /** Our emulator also serves its read figures over HTTP on this port (`GET /emulator/v1/stats`). */
  statsPort?: number;
}

export const DEFAULT_PROJECT_ID = "demo-alpvault";
/** The rules Alpvault deploys: deny-all for clients. */
export const DEFAULT_RULES_FILE = resolve(__dirname, "..", "..", "..", "firestore.rules");
/** The indexes Alpvault deploys. */
export const DEFAULT_INDEXES_FILE = resolve(__dirname, "..", "..", "..", "firestore.indexes.json");
/** Set to 1 to relax index enforcement when the caller does not choose. */
export const RELAXED_INDEXES_ENV = "FIRESTORE_EMULATOR_RELAXED_INDEXES";

/** Major version of `java` on PATH, or undefined when there is none. */
export function javaMajorVersion(): number | undefined {
  const result = spawnSync("java", ["-version"], { encoding: "utf8" });
  if (result.error) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (!match) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major; // "1.8" means Java 8
}

/** The newest official emulator jar in firebase-tools' cache, if any. */
export function officialEmulatorJar(
  cacheDir = join(homedir(), ".cache", "firebase", "emulators"),
): string | undefined {
  if (!existsSync(cacheDir)) return undefined;
  const jars = readdirSync(cacheDir)
    .filter((f) => /^cloud-firestore-emulator-.*\.jar$/.test(f))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const newest = jars[jars.length - 1];
  return newest ? join(cacheDir, newest) : undefined;
}

export async function startFirestore(options: StartFirestoreOptions): Promise<RunningFirestore> {
  const host = options.host ?? "127.0.0.1";
  const projectId = options.projectId ?? DEFAULT_PROJECT_ID;
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  const jar = officialEmulatorJar();
  if (jar && (javaMajorVersion() ?? 0) >= 21) {
    const rulesFile = options.rulesFile ?? DEFAULT_RULES_FILE;
    return startOfficial({ jar, host, port: options.port, dataDir, projectId, rulesFile });
  }
  const emulator = new NodeFirestoreEmulator({
    host,
    port: options.port,
    dataDir,
    indexesFiles: options.indexesFiles ?? [DEFAULT_INDEXES_FILE],
    relaxedIndexes: options.relaxedIndexes ?? process.env[RELAXED_INDEXES_ENV] === "1",
    statsPort: options.statsPort,
  });
  await emulator.start();
  const { stats } = emulator.service;
  return {
    kind: "node",
    host,
    port: options.port,
    stop: (stopOptions) => emulator.stop(stopOptions),
    reads: { snapshot: () => stats.snapshot(), reset: () => stats.reset() },
  };
}

// --- official emulator ------------------------------------------------------------------------------
// Rules: `--rules <file>`, as firebase-tools passes the file firebase.json names; without it the official
// emulator allows every client read and write.
// Import: `--seed_from_export=<dataDir>/firestore_export/firestore_export.overall_export_metadata` (the
// layout `firebase emulators:export` writes). Export: the emulator's REST endpoint
// `POST /emulator/v1/projects/{project}:export`, as firebase-tools does it.

const EXPORT_NAME = "firestore_export";

async function startOfficial(options: {
  jar: string;
  host: string;
  port: number;
  dataDir?: string;
  projectId: string;
  rulesFile: string;
}): Promise<RunningFirestore> {
  const { jar, host, port, dataDir, projectId, rulesFile } = options;
  await assertPortFree(host, port);
  if (!existsSync(rulesFile)) throw new Error(`Firestore rules file not found: ${rulesFile}`);
  const args = ["-jar", jar, "--host", host, "--port", String(port), "--project_id", projectId];
  args.push("--rules", rulesFile); // deny-all for clients, as deployed
  const metadata = dataDir && join(dataDir, EXPORT_NAME, `${EXPORT_NAME}.overall_export_metadata`);
  if (metadata && existsSync(metadata)) args.push(`--seed_from_export=${metadata}`);
  const child = spawn("java", args, { stdio: ["ignore", "inherit", "inherit"] });
  await waitForPort(host, port, child, 60_000);
  return {
    kind: "official",
    host,
    port,
    async stop(stopOptions = {}) {
      if (stopOptions.save && dataDir) {
        await mkdir(dataDir, { recursive: true });
        const response = await fetch(`http://${host}:${port}/emulator/v1/projects/${projectId}:export`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            database: `projects/${projectId}/databases/(default)`,
            export_directory: dataDir,
            export_name: EXPORT_NAME,
          }),
        });
        if (!response.ok)
          throw new Error(`Firestore export failed: ${response.status} ${await response.text()}`);
      }
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

function waitForPort(host: string, port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolvePromise, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`The Firestore emulator exited early (code ${code}).`));
    child.once("exit", onExit);
    const attempt = () => {
      const socket = connect({ host, port });
      socket.once("connect", () => {
        socket.destroy();
        child.off("exit", onExit);
        resolvePromise();
      });
      socket.once("error", () => {
        socket.destroy();
        if (Date.now() > deadline) {
          child.kill("SIGTERM");
          reject(
            new Error(`The Firestore emulator did not listen on ${host}:${port} within ${timeoutMs} ms.`),
          );
        } else setTimeout(attempt, 250);
      });
    };
    attempt();
  });
}
