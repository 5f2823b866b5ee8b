/**
 * The whole local stack, offline: Firestore (our launcher), the Workspace emulator, the Firebase emulators
 * (Auth, Functions, Hosting, Cloud Tasks) and the local scheduler. Used by `npm start` and by `npm test`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { RecentOutput, Supervisor, type ChildDeath } from "./supervise";
import { createWriteStream, existsSync, mkdirSync, readFileSync, type WriteStream } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { startFirestore, type RunningFirestore } from "../emulators/firestore/src/index";
import { startWorkspaceEmulator, type RunningWorkspaceEmulator } from "../emulators/workspace/src/index";
import { startKmsEmulator } from "../emulators/kms/src/index";
import { startStorageEmulator, storageStateFile } from "../emulators/storage/src/index";
import { HOST, PORTS, ROOT, assertPortsFree } from "./ports";
import { REGION_IDS, regionLocation } from "../contracts/src/regions";
import { regionBucketName } from "../functions/src/engine/blobstore/gcs-blob-store";

export const PROJECT_ID = "demo-alpvault";
/** The Workspace emulator writes its service-account key here at every start (a new key each time). */
export const WORKSPACE_KEY_FILE = join(ROOT, ".tmp", "workspace", "service-account.json");
export const WEB_URL = `http://${HOST}:${PORTS.hosting}`;

export interface StackOptions {
  /** Import state from here at start; `stop({ save: true })` writes it back. Omit for a throw-away stack. */
  dataDir?: string;
  /** Build functions and web first (npm start does; the test runner builds once itself). */
  build: boolean;
  /** Where the emulators' output goes: the terminal, or a log file (tests). */
  logFile?: string;
  /**
   * The local scheduler: its dispatcher runs every so many seconds, only once at the start ("once": tests
   * run the dispatcher for their own organisations when they say so, and one run at the start shows the
   * scheduler works), or not at all ("off").
   */
  scheduler: { everySeconds: number } | "once" | "off";
  /** Extra environment for every process (e.g. the test runner's network block). */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the Workspace emulator's answers take Google's time (its latency and bandwidth model).
   * On for npm start, so the demo feels like Google; off where only behaviour is checked (tests, seeding).
   */
  googleLatency: boolean;
  /**
   * The size of the demo organisation's huge Drive file (a generated video; its bytes are never stored).
   * npm start uses 3 GiB, like the tenants' largest files; tests and seeding keep it small
   * (`TEST_HUGE_FILE_BYTES`) so they stay fast.
   */
  hugeFileBytes: number;
}

export interface RunningStack {
  webUrl: string;
  env: NodeJS.ProcessEnv;
  firestoreKind: RunningFirestore["kind"];
  /** Resolves when a child process of the stack (the Firebase emulators, the scheduler) dies on its own. */
  died: Promise<ChildDeath>;
  stop(options: { save: boolean }): Promise<void>;
}

const FIREBASE_BIN = join(ROOT, "node_modules", "firebase-tools", "lib", "bin", "firebase.js");
const TSX_CLI = require.resolve("tsx/cli");
const READY_TIMEOUT_MS = 180_000;
/** The demo's huge Drive file on npm start: 3 GiB (the Storage emulator keeps object bytes on disk). */
export const DEMO_HUGE_FILE_BYTES = 3 * 1024 ** 3;
/**
 * The huge Drive file for tests and seeding: above the engine's resumable size (64 MiB), so the local
 * product still resumes it by Range across task deliveries, but quick to back up.
 */
export const TEST_HUGE_FILE_BYTES = 96 * 1024 * 1024;

export function buildAll(): void {
  for (const workspace of ["functions", "web"]) {
    const result = spawnSync("npm", ["run", "build", "-w", workspace], { cwd: ROOT, stdio: "inherit" });
    if (result.status !== 0) throw new Error(`Building ${workspace} failed (exit ${String(result.status)})`);
  }
}

/** The environment that points every Google/Firebase client in our processes at the local emulators. */
export function emulatorEnv(): NodeJS.ProcessEnv {
  return {
    GCLOUD_PROJECT: PROJECT_ID,
    FIRESTORE_EMULATOR_HOST: `${HOST}:${PORTS.firestore}`,
    FIREBASE_AUTH_EMULATOR_HOST: `${HOST}:${PORTS.auth}`,
    CLOUD_TASKS_EMULATOR_HOST: `${HOST}:${PORTS.tasks}`,
    WORKSPACE_EMULATOR_URL: `http://${HOST}:${PORTS.workspace}`,
    WORKSPACE_SERVICE_ACCOUNT_KEY_FILE: WORKSPACE_KEY_FILE,
    KMS_EMULATOR_HOST: `${HOST}:${PORTS.kms}`,
    STORAGE_EMULATOR_HOST: `http://${HOST}:${PORTS.storage}`,
    // Our Firestore emulator's reads per request (GET <url>/emulator/v1/stats), for tests that assert on reads.
    FIRESTORE_EMULATOR_STATS_URL: `http://${HOST}:${PORTS.firestoreStats}`,
    METADATA_SERVER_DETECTION: "none",
  };
}

function output(logFile: string | undefined): { stream: WriteStream | NodeJS.WriteStream; close(): void } {
  if (!logFile) return { stream: process.stdout, close: () => undefined };
  mkdirSync(dirname(logFile), { recursive: true });
  const stream = createWriteStream(logFile, { flags: "a" });
  return { stream, close: () => stream.end() };
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => resolvePromise(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolvePromise(true);
    });
  });
}

/**
 * Ends what is left of a detached child's process group: firebase-tools runs each function in a worker
 * process of its own, and a worker outlives a firebase-tools that was killed or crashed.
 */
function endGroup(child: ChildProcess): void {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // nothing is left of the group
  }
}

async function stopChild(
  child: ChildProcess,
  timeoutMs: number,
  options: { group?: boolean } = {},
): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGINT");
    if (!(await waitForExit(child, timeoutMs))) {
      if (child.pid) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }
      await waitForExit(child, 5000);
    }
  }
  if (options.group) endGroup(child);
}

/** Starts firebase-tools and resolves once it prints that every emulator is ready. */
function startFirebase(
  options: StackOptions,
  env: NodeJS.ProcessEnv,
  sink: NodeJS.WritableStream,
  recentOutput: RecentOutput,
): Promise<ChildProcess> {
  const args = [
    FIREBASE_BIN,
    "emulators:start",
    "--only",
    "auth,functions,hosting,tasks",
    "--project",
    PROJECT_ID,
  ];
  if (options.dataDir) {
    const firebaseData = join(options.dataDir, "firebase");
    if (existsSync(join(firebaseData, "firebase-export-metadata.json"))) args.push("--import", firebaseData);
    args.push("--export-on-exit", firebaseData);
  }
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, NO_UPDATE_NOTIFIER: "1", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const recent: string[] = [];
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `The Firebase emulators were not ready after ${READY_TIMEOUT_MS / 1000} s:\n${recent.join("")}`,
        ),
      );
      // The start has failed already; a failure to stop ends the process with its error.
      void stopChild(child, 10_000, { group: true });
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString();
      sink.write(text);
      recentOutput.add(text);
      recent.push(text);
      if (recent.length > 40) recent.shift();
      if (text.includes("All emulators ready")) {
        clearTimeout(timer);
        resolvePromise(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      endGroup(child);
      reject(new Error(`The Firebase emulators exited early (code ${String(code)}):\n${recent.join("")}`));
    });
  });
}

function startScheduler(
  intervalSeconds: number | "once",
  env: NodeJS.ProcessEnv,
  sink: NodeJS.WritableStream,
  recent: RecentOutput,
): ChildProcess {
  const child = spawn(process.execPath, [TSX_CLI, resolve(ROOT, "scripts", "local-scheduler.ts")], {
    cwd: ROOT,
    // It runs the functions' own handler the way the Functions emulator would, so it is in emulator mode.
    env: {
      ...process.env,
      ...env,
      FUNCTIONS_EMULATOR: "true",
      SCHEDULER_INTERVAL_SECONDS: intervalSeconds === "once" ? "once" : String(intervalSeconds),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      sink.write(chunk);
      recent.add(chunk);
    });
  }
  return child;
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  await assertPortsFree();
  if (options.build) buildAll();
  const env = { ...emulatorEnv(), ...options.env };
  const out = output(options.logFile);

  const started: { name: string; stop(save: boolean): Promise<void> }[] = [];
  const supervisor = new Supervisor();
  const stopAll = async (save: boolean): Promise<void> => {
    supervisor.stop();
    for (const service of started.reverse()) await service.stop(save);
    started.length = 0;
    out.close();
  };

  try {
    const firestore = await startFirestore({
      port: PORTS.firestore,
      host: HOST,
      projectId: PROJECT_ID,
      dataDir: options.dataDir ? join(options.dataDir, "firestore") : undefined,
      // Queries are served from the indexes we deploy, plus those the Firestore conformance suite declares
      // for its own collection groups; a query that needs another index is refused, as in production.
      statsPort: PORTS.firestoreStats,
      indexesFiles: [
        join(ROOT, "firestore.indexes.json"),
        join(ROOT, "tests", "firestore-conformance", "firestore.indexes.json"),
      ],
    });
    started.push({ name: "firestore", stop: (save) => firestore.stop({ save }) });

    const workspace: RunningWorkspaceEmulator = await startWorkspaceEmulator({
      port: PORTS.workspace,
      host: HOST,
      dataDir: options.dataDir,
      profile: "demo",
      keyFile: WORKSPACE_KEY_FILE,
      latency: { enabled: options.googleLatency },
      // The demo organisation has the tenants' awkward cases (a shared drive without the admin, a Drive-only
      // user, Forms, Sites, shortcuts, a file owned outside the organisation, a large message, a huge file).
      awkwardDrive: true,
      awkwardMail: true,
      hugeFileBytes: options.hugeFileBytes,
    });
    started.push({ name: "workspace", stop: (save) => workspace.stop({ save }) });

    // Nothing is seeded: keys are created through its API (tests, or by hand on npm start).
    const kms = await startKmsEmulator({ port: PORTS.kms, host: HOST, dataDir: options.dataDir });
    started.push({ name: "kms", stop: (save) => kms.stop({ save }) });

    // Buckets are created on first use (the functions name their region's bucket); object metadata is kept
    // in <dataDir>/storage/state.json.gz, object bytes in files under <dataDir>/storage/objects/.
    const storage = await startStorageEmulator({
      port: PORTS.storage,
      host: HOST,
      stateFile: options.dataDir ? storageStateFile(options.dataDir) : undefined,
      // The product's region buckets (engine/blobstore/gcs-blob-store.ts) are in their region's location, as
      // in production, so a customer key in another location is refused as Cloud Storage refuses it.
      autoCreateBuckets: (bucket) => {
        const regionId = REGION_IDS.find((id) => bucket === regionBucketName(PROJECT_ID, id));
        return regionId && regionLocation(regionId);
      },
      // Objects uploaded with a kmsKeyName are sealed under a data key this KMS emulator wraps and unwraps.
      kmsEndpoint: kms.url,
      // Export download links are signed with the local service-account key (production: the runtime's
      // service account); read on each signed request, as the Workspace emulator writes a new key per start.
      signingAccounts: () => {
        const key = JSON.parse(readFileSync(WORKSPACE_KEY_FILE, "utf8")) as {
          client_email: string;
          private_key: string;
        };
        return [{ clientEmail: key.client_email, key: key.private_key }];
      },
    });
    started.push({ name: "storage", stop: (save) => storage.stop({ save }) });

    const firebaseOutput = new RecentOutput();
    const firebase = await startFirebase(options, env, out.stream, firebaseOutput);
    // firebase-tools exports on exit only when asked to (--export-on-exit); a throw-away stack has none.
    // Its own process group (detached): the stop also ends the function workers it leaves behind when it died.
    started.push({ name: "firebase", stop: () => stopChild(firebase, 60_000, { group: true }) });
    supervisor.watch(
      "The Firebase emulators (Auth, Functions, Hosting, Cloud Tasks)",
      firebase,
      firebaseOutput,
    );

    if (options.scheduler !== "off") {
      const schedulerOutput = new RecentOutput();
      const interval = options.scheduler === "once" ? "once" : options.scheduler.everySeconds;
      const scheduler = startScheduler(interval, env, out.stream, schedulerOutput);
      started.push({ name: "scheduler", stop: () => stopChild(scheduler, 10_000) });
      supervisor.watch("The local scheduler", scheduler, schedulerOutput);
    }

    return {
      webUrl: WEB_URL,
      env,
      firestoreKind: firestore.kind,
      died: supervisor.died,
      stop: ({ save }) => stopAll(save),
    };
  } catch (error) {
    await stopAll(false);
    throw error;
  }
}
