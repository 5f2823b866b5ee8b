/**
 * `npm start`: builds, starts the whole local stack offline with the seeded demo organisation from
 * emulator-data/, prints the one URL to open, and on Ctrl-C saves state back to emulator-data/.
 *
 * For tests of npm start itself (tests/start/), three environment variables change where it works:
 * ALPVAULT_DATA_DIR (the state folder instead of emulator-data/), ALPVAULT_LOG_FILE (the emulators' output
 * instead of .tmp/logs/stack.log) and ALPVAULT_SKIP_BUILD=1 (use the existing builds of functions and web).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ROOT } from "./ports";
import { DEMO_HUGE_FILE_BYTES, startStack, type RunningStack } from "./stack";

const DATA_DIR = resolve(process.env.ALPVAULT_DATA_DIR || resolve(ROOT, "emulator-data"));
const LOG_FILE = resolve(process.env.ALPVAULT_LOG_FILE || resolve(ROOT, ".tmp", "logs", "stack.log"));
const BUILD = process.env.ALPVAULT_SKIP_BUILD !== "1";
/** What the Firebase emulators load: the functions' bundle and the web app (Hosting's public folder). */
const BUILT_FILES = ["functions/lib/index.js", "web/dist/index.html"];
const SCHEDULER_INTERVAL_SECONDS = 600; // the production schedule: every 10 minutes

async function main(): Promise<void> {
  const unbuilt = BUILD ? [] : BUILT_FILES.filter((file) => !existsSync(resolve(ROOT, file)));
  if (unbuilt.length > 0) {
    console.error(
      `\nAlpvault could not start: ALPVAULT_SKIP_BUILD=1, but there is no build (${unbuilt.join(", ")} ` +
        "missing). Build first (npm run build), or start without ALPVAULT_SKIP_BUILD.",
    );
    process.exit(1);
  }
  let stack: RunningStack;
  try {
    stack = await startStack({
      dataDir: DATA_DIR,
      build: BUILD,
      logFile: LOG_FILE,
      scheduler: { everySeconds: SCHEDULER_INTERVAL_SECONDS },
      googleLatency: true,
      hugeFileBytes: DEMO_HUGE_FILE_BYTES,
    });
  } catch (error) {
    console.error(`\nAlpvault could not start.\n${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  console.log(
    `\n  Alpvault is running (Firestore: ${stack.firestoreKind} emulator). Open:\n\n    ${stack.webUrl}\n`,
  );
  console.log(`  Emulator output goes to ${LOG_FILE}.`);
  console.log(`  Press Ctrl-C to stop; state is saved to ${DATA_DIR}.\n`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`\nStopping and saving state to ${DATA_DIR} ...`);
    await stack.stop({ save: true });
    console.log("Stopped.");
    process.exit(0);
  };
  // Stopping that fails ends the process with its error and status 1, as it should.
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());

  // Half a stack helps nobody: when a part of it dies, say which and why, save what the others hold, stop.
  // (A failure to stop ends the process with its error and status 1.)
  void stack.died.then(async (death) => {
    if (stopping) return;
    stopping = true;
    console.error(
      `\nAlpvault stopped: ${death.message}\n\nStopping the rest and saving state to ${DATA_DIR} ...`,
    );
    await stack.stop({ save: true });
    console.error(`Stopped. The whole output is in ${LOG_FILE}.`);
    process.exit(1);
  });
}

// A failure ends the process with its error and status 1 (Node's answer to an unhandled rejection).
void main();
