/**
 * `npm start` when the Functions emulator dies under it: it must say which part died and how, stop the rest
 * of the stack with a save, leave no process or port behind, and exit with status 1, instead of running on
 * half a stack. This starts scripts/start.ts itself, as `npm start` does, on a copy of emulator-data/ and
 * with the existing builds, so it needs the stack's ports free: npm test runs it before its own
 * stack starts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { HOST, PORTS, ROOT, assertPortsFree } from "../../scripts/ports";
import { listeners, processTree, processes, stillRunning, type ProcessInfo } from "../support/processes";

/** firebase-tools gets 180 s to say its emulators are ready (scripts/stack.ts); the rest starts in seconds. */
const START_TIMEOUT_MS = 240_000;
/** A saving stop of the rest takes seconds; anything near this is a hang. */
const STOP_TIMEOUT_MS = 120_000;
const LOG_FILE = resolve(ROOT, "tests", "artifacts", "logs", "stack-start-functions-dies.log");
/** What npm start printed in its terminal, for a reviewer. */
const TERMINAL_FILE = resolve(ROOT, "tests", "artifacts", "logs", "start-functions-dies.terminal.txt");
const BLOCK_NETWORK = resolve(ROOT, "tests", "support", "block-network.cjs");
const FIREBASE_EMULATORS = "The Firebase emulators (Auth, Functions, Hosting, Cloud Tasks)";

const marker = randomUUID().slice(0, 8);
const mailbox = `start-death-${marker}@alpvault-demo.test`;
const bucket = "alpvault-start-death";
const object = `kept-${marker}`;

let dataDir = "";
let start: ChildProcess | undefined;
let stdout = "";
let stderr = "";
let exit: { code: number | null; signal: NodeJS.Signals | null } | "hung" | undefined;
/** The Functions emulator's process (the one listening on its port) and every process npm start ran. */
let functionsEmulator: ProcessInfo | undefined;
/** Who listens on the Hosting, regional API, Auth and Cloud Tasks ports while the stack runs. */
let otherListeners: number[][] = [];
let before: ProcessInfo[] = [];
/** The repository's own emulator-data/ must come out as it went in. */
const REPO_WORKSPACE_STATE = resolve(ROOT, "emulator-data", "workspace", "state.json.gz");
const repoWorkspaceState = (): number | undefined =>
  existsSync(REPO_WORKSPACE_STATE) ? statSync(REPO_WORKSPACE_STATE).mtimeMs : undefined;
let repoWorkspaceStateBefore: number | undefined;

function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = setInterval(() => {
      if (condition()) {
        clearInterval(poll);
        resolvePromise();
      } else if (Date.now() > deadline || exit !== undefined) {
        clearInterval(poll);
        reject(new Error(`${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      }
    }, 200);
  });
}

function exited(child: ChildProcess, timeoutMs: number): Promise<typeof exit> {
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => resolvePromise("hung"), timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal });
    });
  });
}

beforeAll(
  async () => {
    await assertPortsFree();
    repoWorkspaceStateBefore = repoWorkspaceState();
    dataDir = mkdtempSync(join(tmpdir(), "alpvault-start-"));
    cpSync(resolve(ROOT, "emulator-data"), dataDir, { recursive: true });
    start = spawn(process.execPath, [require.resolve("tsx/cli"), resolve(ROOT, "scripts", "start.ts")], {
      cwd: ROOT,
      // Its own process group, so that whatever it leaves behind can be found (and, after the test, ended).
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ALPVAULT_DATA_DIR: dataDir,
        ALPVAULT_LOG_FILE: LOG_FILE,
        ALPVAULT_SKIP_BUILD: "1",
        NODE_OPTIONS: `--require ${BLOCK_NETWORK}`,
      },
    });
    start.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    start.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exitOfStart = exited(start, START_TIMEOUT_MS + STOP_TIMEOUT_MS);
    void exitOfStart.then((result) => (exit ??= result));
    await until(() => stdout.includes("Alpvault is running"), START_TIMEOUT_MS, "npm start did not start");

    // Something the stop must save: a user added to the Workspace emulator while the stack runs.
    const added = await fetch(`http://${HOST}:${PORTS.workspace}/emulator/v1/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: mailbox, givenName: "Start", familyName: "Death" }),
    });
    expect(added.status).toBe(200);
    // And an object in the Storage emulator (an emulator without buckets saves nothing).
    const uploaded = await fetch(
      `http://${HOST}:${PORTS.storage}/upload/storage/v1/b/${bucket}/o?uploadType=media&name=${object}`,
      { method: "POST", headers: { "content-type": "text/plain" }, body: "kept across a death" },
    );
    expect(uploaded.status).toBe(200);
    // A request through Hosting to the API, so that the Functions emulator runs a worker process for it.
    expect((await fetch(`http://${HOST}:${PORTS.hosting}/v1/health`)).status).toBeLessThan(500);

    [functionsEmulator] = listeners(PORTS.functions);
    otherListeners = [PORTS.hosting, PORTS.apiEu, PORTS.auth, PORTS.tasks].map((port) =>
      listeners(port).map((info) => info.pid),
    );
    before = processTree(start.pid ?? 0);
    if (functionsEmulator) process.kill(functionsEmulator.pid, "SIGKILL");
    exit = await exited(start, STOP_TIMEOUT_MS);
  },
  START_TIMEOUT_MS + STOP_TIMEOUT_MS + 10_000,
);

afterAll(() => {
  // Whatever the outcome, nothing of this test runs on: end what is left of what it started.
  const leftovers = [...before, ...(start?.pid ? processTree(start.pid) : [])].filter(stillRunning);
  for (const info of leftovers) {
    try {
      process.kill(info.pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dirname(TERMINAL_FILE), { recursive: true });
  writeFileSync(TERMINAL_FILE, `── stdout ──\n${stdout}\n── stderr ──\n${stderr}`);
});

test("when npm start runs, then one process of npm start serves the Functions, Hosting, Auth and Cloud Tasks emulators", () => {
  expect(functionsEmulator).toBeDefined();
  expect(before.map((info) => info.pid)).toContain(functionsEmulator?.pid);
  // One process: a Hosting or Auth port dying is the same death as the Functions emulator's.
  expect(otherListeners).toEqual([1, 2, 3, 4].map(() => [functionsEmulator?.pid]));
  // It runs the functions in worker processes of its own.
  expect(before.filter((info) => info.ppid === functionsEmulator?.pid).length).toBeGreaterThan(0);
});

test("when the Functions emulator's process is killed, then npm start exits with status 1 instead of hanging", () => {
  expect(exit).toEqual({ code: 1, signal: null });
});

test("when the Functions emulator's process is killed, then npm start names it, how it ended and its last output", () => {
  expect(stderr).toContain(
    `Alpvault stopped: ${FIREBASE_EMULATORS} was killed (SIGKILL) while the stack was running.`,
  );
  const lastOutput = stderr
    .split("Its last output:\n")[1]
    ?.split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => line.slice(2));
  expect(lastOutput?.length).toBeGreaterThan(0);
  // What it printed is what the emulators really wrote (the log file has all of it).
  const log = readFileSync(LOG_FILE, "utf8");
  for (const line of lastOutput ?? []) expect(log).toContain(line);
  expect(stderr).toContain(`Stopped. The whole output is in ${LOG_FILE}.`);
});

test("when the Functions emulator's process is killed, then the whole stack stops: every port is free and no process is left", async () => {
  await expect(assertPortsFree()).resolves.toBeUndefined();
  expect(before.filter(stillRunning).map(label)).toEqual([]);
  // Also what started after the snapshot: nothing is left in npm start's or firebase-tools' process group.
  const groups = new Set([start?.pid, functionsEmulator?.pgid]);
  expect(
    processes()
      .filter((info) => groups.has(info.pgid) && stillRunning(info))
      .map(label),
  ).toEqual([]);
});

test("when the Functions emulator's process is killed, then the rest of the stack saved its state to the data folder", () => {
  expect(stderr).toContain(`Stopping the rest and saving state to ${dataDir} ...`);
  const workspaceState = join(dataDir, "workspace", "state.json.gz");
  expect(existsSync(workspaceState)).toBe(true);
  expect(gunzipSync(readFileSync(workspaceState)).toString("utf8")).toContain(mailbox);
  const storageState = join(dataDir, "storage", "state.json.gz");
  expect(existsSync(storageState)).toBe(true);
  expect(gunzipSync(readFileSync(storageState)).toString("utf8")).toContain(object);
  // The repository's own emulator-data/ was not touched.
  expect(repoWorkspaceState()).toBe(repoWorkspaceStateBefore);
});

function label(info: ProcessInfo): string {
  return `${info.pid} ${info.command}`;
}
