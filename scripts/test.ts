/**
 * `npm test`: everything, in one command, offline. Side by side from the start: lint (ESLint, type-aware,
 * with our rules; Prettier; sizes) and typecheck of every package at the lowest processor priority, the
 * unit tests and the web's component tests (jsdom); and, after the builds of functions and web, one after
 * another:
 *   1. the tests of npm start itself (tests/start/), which start and break a stack of their own;
 *   2. one throw-away local stack (seeded from emulator-data/; its scheduler runs the dispatchers once, at
 *      the start) with the Firestore conformance, API (the product served by the test's own process, its
 *      background work run when the test says so), end-to-end (through Hosting, the Functions emulator and
 *      Cloud Tasks), browser (the web from Hosting, its API answered by the test's own process) and
 *      browser-journey (the whole deployed shape) suites against it, in two groups: the files that use the
 *      demo organisation, one after another, and beside them those that make organisations of their own,
 *      three at a time; then the tests that run alone (tests/exclusive);
 *   3. stop it saving state, start it again, and check the state came back (what Ctrl-C on npm start does).
 * Ends with each step's time, the 15 slowest test files, and one line "Tests: N passed, N failed, N
 * skipped" over every jest run.
 *
 * `npm test -- <test file or pattern>...` is the focused developer loop: build, start the stack, run only
 * the matching API/browser/conformance test files (no lint, typecheck, unit or restart steps), then, after
 * it has stopped, the matching tests of npm start. A run that names only files under tests/start/ starts
 * no stack of its own.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { randomUUID } from "node:crypto";
import { ROOT } from "./ports";
import { TEST_HUGE_FILE_BYTES, buildAll, startStack, type RunningStack } from "./stack";
import type { ChildDeath } from "./supervise";

const ARTIFACTS = resolve(ROOT, "tests", "artifacts");
const BLOCK_NETWORK = resolve(ROOT, "tests", "support", "block-network.cjs");
/** The tests of npm start itself: they start the stack themselves, so only while no other stack runs. */
const START_TESTS = join("tests", "start");

interface StepResult {
  name: string;
  ok: boolean;
  /** How long the step took, in seconds (the summary prints it, to keep the whole run's time in view). */
  seconds?: number;
  /** The processor time it used (user and system, its child processes included), in seconds. */
  cpu?: number;
}

const GNU_TIME = "/usr/bin/time";
const NICE = "nice";

/** The user and system seconds GNU time wrote to `file` (its last line), if it did. */
function cpuSeconds(file: string | undefined): number | undefined {
  if (!file || !existsSync(file)) return undefined;
  const last = readFileSync(file, "utf8").trim().split("\n").pop() ?? "";
  const [user, system] = last.split(" ").map(Number);
  return user !== undefined && system !== undefined && Number.isFinite(user + system)
    ? Math.round(user + system)
    : undefined;
}

const results: StepResult[] = [];
const runStarted = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Every test file's time (seconds), for the summary's slowest files. */
const fileTimes: { file: string; seconds: number }[] = [];

/**
 * Runs one step as a child process. Asynchronous on purpose: the local stack's Firestore and Workspace
 * emulators run inside this process, and a blocking spawn would stop them answering the tests. A `buffered`
 * step keeps its output until it ends, so that steps run side by side print one after the other.
 */
async function run(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { buffered?: boolean; background?: boolean } = {},
): Promise<boolean> {
  if (!options.buffered) console.log(`\n── ${name} ──`);
  // Background work yields the processor to every other process (its children inherit the priority).
  const [niced, nicedArgs] = options.background ? [NICE, ["-n", "19", command, ...args]] : [command, args];
  const started = Date.now();
  // The step's processor time (its processes and theirs), through GNU time where the machine has it.
  const cpuFile = existsSync(GNU_TIME)
    ? join(mkdtempSync(join(tmpdir(), "alpvault-cpu-")), "cpu")
    : undefined;
  const [program, programArgs] = cpuFile
    ? [GNU_TIME, ["-f", "%U %S", "-o", cpuFile, niced, ...nicedArgs]]
    : [niced, nicedArgs];
  const child = spawn(program, programArgs, {
    cwd: ROOT,
    stdio: options.buffered ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, ...env },
  });
  const output: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
  const status = await new Promise<number | null>((resolvePromise) => {
    child.once("error", () => resolvePromise(null));
    child.once("close", (code) => resolvePromise(code));
  });
  if (options.buffered) process.stdout.write(`\n── ${name} ──\n${Buffer.concat(output).toString("utf8")}`);
  const ok = status === 0;
  results.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000), cpu: cpuSeconds(cpuFile) });
  return ok;
}

async function jest(
  name: string,
  projects: string[],
  env: NodeJS.ProcessEnv = {},
  patterns: string[] = [],
  options: { buffered?: boolean; background?: boolean } = {},
): Promise<boolean> {
  const report = join(mkdtempSync(join(tmpdir(), "alpvault-jest-")), "report.json");
  const ok = await run(
    name,
    process.execPath,
    [
      // Lets jest run the dynamic import() with which Google's clients (gaxios, teeny-request) load their
      // HTTP transport, so tests use the transport production uses.
      "--experimental-vm-modules",
      "--disable-warning=ExperimentalWarning",
      require.resolve("jest/bin/jest"),
      "--ci",
      "--selectProjects",
      ...projects,
      "--json",
      "--outputFile",
      report,
      ...patterns,
    ],
    { METADATA_SERVER_DETECTION: "none", ...env },
    options,
  );
  if (existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
      numRuntimeErrorTestSuites: number;
      testResults: { name: string; startTime: number; endTime: number }[];
    };
    for (const file of summary.testResults) {
      fileTimes.push({ file: relative(ROOT, file.name), seconds: (file.endTime - file.startTime) / 1000 });
    }
    totals.passed += summary.numPassedTests;
    totals.failed += summary.numFailedTests + summary.numRuntimeErrorTestSuites;
    totals.skipped += summary.numPendingTests + summary.numTodoTests;
  } else {
    totals.failed += 1;
  }
  return ok;
}

/** The jest projects that run against the stack, side by side with others. */
const STACK_PROJECTS = ["firestore-conformance", "api", "e2e", "browser", "journeys"];
/** The folders of their test files. */
const STACK_TEST_FOLDERS = STACK_PROJECTS.map((folder) => join("tests", folder));
/** What marks a test file that uses the demo organisation (its app, its admin, its resources). */
const USES_DEMO_ORGANISATION =
  /\b(onboardDemoOrganization|demoSignIn|signedInDemoPage|protectDemoResource|DEMO_DOMAIN|DEMO_ADMIN)\b/;

/**
 * The stack's test files in two groups: those that use the demo organisation, which must not run at the
 * same time as each other, and the others, which make organisations of their own.
 */
function stackTestGroups(): { demo: string[]; own: string[] } {
  const files = STACK_TEST_FOLDERS.flatMap((folder) =>
    readdirSync(resolve(ROOT, folder))
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => join(folder, name)),
  ).sort();
  const demo = files.filter((file) => USES_DEMO_ORGANISATION.test(readFileSync(resolve(ROOT, file), "utf8")));
  return { demo, own: files.filter((file) => !demo.includes(file)) };
}

async function withStack<T>(
  dataDir: string,
  label: string,
  body: (stack: RunningStack) => Promise<T>,
): Promise<T | undefined> {
  let stack: RunningStack;
  const started = Date.now();
  try {
    console.log(`\n── start the local stack (${label}) ──`);
    stack = await startStack({
      dataDir,
      build: false,
      logFile: join(ARTIFACTS, "logs", `stack-${label}.log`),
      // Once, at the start: tests run the dispatcher for their own organisations when they say so.
      scheduler: "once",
      env: { NODE_OPTIONS: `--require ${BLOCK_NETWORK}` },
      // Tests check behaviour, never time; the benchmarks run with Google's latency.
      googleLatency: false,
      // 96 MiB: still resumed by Range across deliveries, quick to back up.
      hugeFileBytes: TEST_HUGE_FILE_BYTES,
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    results.push({ name: `start the local stack (${label})`, ok: false });
    totals.failed += 1;
    return undefined;
  }
  results.push({
    name: `start the local stack (${label})`,
    ok: true,
    seconds: Math.round((Date.now() - started) / 1000),
  });
  // A part of the stack that dies fails the run, named with its cause (the tests after it would only time out).
  let death: ChildDeath | undefined;
  // Not awaited: `died` settles only when a part dies, and never rejects.
  void stack.died.then((dead) => {
    death = dead;
    console.error(`\n── the local stack (${label}) broke ──\n${dead.message}`);
  });
  try {
    return await body(stack);
  } finally {
    await stack.stop({ save: true });
    if (death) {
      results.push({ name: `the local stack (${label}): ${death.name} died`, ok: false });
      totals.failed += 1;
    }
  }
}

async function main(): Promise<void> {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  const focus = process.argv.slice(2);
  if (focus.length > 0) return focused(focus);

  // Lint and typecheck run from the start at the lowest priority (one process each): they take the
  // processor time the tests leave. The stack's suites wait on the stack and the browser more than they use
  // a core, and a chain of them is the run's longest path, so nothing may slow them (see stackTests). The
  // unit and component tests (two workers) run at the normal priority: each test has a hang bound, which
  // starved tests would pass.
  const background = { buffered: true, background: true };
  const unit = jest("unit and component tests", ["unit", "web"], {}, ["--maxWorkers=2"], { buffered: true });
  const checks = Promise.all([
    run("lint", "npm", ["run", "--silent", "lint"], {}, background),
    run("typecheck", "npm", ["run", "--silent", "typecheck"], {}, background),
    unit,
  ]);
  // The builds one after the other (the web's is the larger); the stacks need them.
  const built =
    (await run("build functions", "npm", ["run", "--silent", "build", "-w", "functions"])) &&
    (await run("build web", "npm", ["run", "--silent", "build", "-w", "web"]));
  if (built) await stackTests(unit);
  await checks;
  summarise();
}

/**
 * What needs the builds: first the tests of npm start itself (they start and break a stack of their own on
 * the stack's ports, so before ours starts), then one throw-away stack for the stack's suites, stopped,
 * started again and checked. The files on the demo organisation start at once, one after another (they
 * share it); the others, each on organisations of its own, three at a time once the unit tests have left
 * the cores (started with the demo files at once, their first requests to the stack failed with "other
 * side closed" in three of six clean-clone runs, 2026-12-02; never in the runs that waited).
 */
async function stackTests(unit: Promise<unknown>): Promise<void> {
  await jest("npm start when a part of the stack dies", ["start"]);
  // The stack runs on a copy of the seed, so tests never change emulator-data/.
  const dataDir = mkdtempSync(join(tmpdir(), "alpvault-data-"));
  cpSync(resolve(ROOT, "emulator-data"), dataDir, { recursive: true });
  const marker = randomUUID();
  try {
    await withStack(dataDir, "first", async (stack) => {
      const env = { ...stack.env, ALPVAULT_WEB_URL: stack.webUrl };
      const { demo, own } = stackTestGroups();
      const onDemo = jest("tests on the demo organisation", STACK_PROJECTS, env, [
        "--runTestsByPath",
        ...demo,
      ]);
      await unit;
      await Promise.all([
        onDemo,
        // A file removes only the Workspace faults it added, so files on their own organisations share
        // the stack freely.
        jest("conformance, API and browser tests on their own organisations", STACK_PROJECTS, env, [
          "--maxWorkers=3",
          "--runTestsByPath",
          ...own,
        ]),
      ]);
      // Alone and one after another: these change what the whole deployment shares (the daily Google
      // budget's ledger) or read the demo organisation as a whole (a restore drill of all it protects).
      await jest("tests that run alone", ["exclusive"], env, ["--runInBand"]);
      await jest("state before restart", ["before-restart"], { ...env, RESTART_MARKER: marker });
    });
    await withStack(dataDir, "restarted", async (stack) => {
      const env = { ...stack.env, ALPVAULT_WEB_URL: stack.webUrl };
      await jest("state after restart", ["after-restart"], { ...env, RESTART_MARKER: marker });
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Only the given stack-backed test files, against a fresh stack (see the header). */
async function focused(patterns: string[]): Promise<void> {
  buildAll();
  const underStartTests = (pattern: string): boolean => {
    const path = relative(ROOT, resolve(ROOT, pattern));
    return path === START_TESTS || path.startsWith(`${START_TESTS}/`);
  };
  if (!patterns.every(underStartTests)) {
    const dataDir = mkdtempSync(join(tmpdir(), "alpvault-data-"));
    cpSync(resolve(ROOT, "emulator-data"), dataDir, { recursive: true });
    try {
      await withStack(dataDir, "focused", async (stack) => {
        const env = { ...stack.env, ALPVAULT_WEB_URL: stack.webUrl };
        // A file of any group may be named: each run passes when it finds none of them.
        await jest("focused tests", STACK_PROJECTS, env, ["--passWithNoTests", ...patterns]);
        await jest("focused tests that run alone", ["exclusive"], env, [
          "--runInBand",
          "--passWithNoTests",
          ...patterns,
        ]);
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  await jest("focused tests of npm start", ["start"], {}, ["--passWithNoTests", ...patterns]);
  summarise();
}

/**
 * The processor seconds of this process's children that it waited for, less those of the steps (which ran
 * under GNU time, whose own figures the steps report): /proc/self/stat's cutime and cstime.
 */
function childrenCpuSeconds(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
    // After "pid (comm) ", cutime and cstime are the 14th and 15th fields (clock ticks, 100 a second).
    const ticks = Number(fields[13]) + Number(fields[14]);
    const steps = results.reduce((sum, result) => sum + (result.cpu ?? 0), 0);
    return Number.isFinite(ticks) ? Math.max(0, Math.round(ticks / 100 - steps)) : 0;
  } catch {
    return 0;
  }
}

function summarise(): never {
  console.log("\n── summary ──");
  for (const result of results) {
    const cpu = result.cpu === undefined ? "" : `, ${result.cpu} s of processor time`;
    const took = result.seconds === undefined ? "" : ` (${result.seconds} s${cpu})`;
    console.log(`  ${result.ok ? "ok  " : "FAIL"}  ${result.name}${took}`);
  }
  console.log("\n── the slowest test files ──");
  for (const { file, seconds } of [...fileTimes].sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
    console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
  }
  // The stack's own processes: this one (the in-process emulators) and those it waited for (firebase-tools
  // and its function workers, the scheduler).
  const own = process.cpuUsage();
  console.log(
    `Processor time of the stack: ${Math.round((own.user + own.system) / 1e6)} s in this process, ` +
      `${childrenCpuSeconds()} s in the stack's processes it waited for (firebase-tools, scheduler)`,
  );
  console.log(`Whole run: ${Math.round((Date.now() - runStarted) / 1000)} s`);
  console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(results.every((result) => result.ok) && totals.failed === 0 ? 0 : 1);
}

// A failure ends the process with its error and status 1 (Node's answer to an unhandled rejection).
void main();
