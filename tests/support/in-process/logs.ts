/**
 * The product's log lines in a test that runs it in its own process go to
 * `tests/artifacts/logs/in-process/<test file>.log`, as the stack writes the Functions emulator's, not
 * into the test's output. Runs before anything loads the product: its logger keeps the console it finds.
 */
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { format } from "node:util";

const ROOT = resolve(__dirname, "..", "..", "..");
const testPath = expect.getState().testPath ?? "unknown.test.ts";
const logFile = resolve(ROOT, "tests", "artifacts", "logs", "in-process", `${relative(ROOT, testPath)}.log`);
mkdirSync(dirname(logFile), { recursive: true });
const log = createWriteStream(logFile, { flags: "a" });
for (const level of ["log", "info", "warn", "error", "debug"] as const) {
  console[level] = (...args: unknown[]) => {
    log.write(`${level.toUpperCase()} ${format(...args)}\n`);
  };
}

afterAll(async () => {
  await new Promise<void>((resolvePromise) => log.end(() => resolvePromise()));
});
