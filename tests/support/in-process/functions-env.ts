/**
 * The environment the Functions emulator gives our functions, for a test that runs the product in its own
 * process: `FUNCTIONS_EMULATOR=true` (local mode: the Workspace, KMS and Storage emulators, the sandbox
 * payment provider, unsigned App Check tokens with their claims checked), and the values of
 * `functions/.env` then `functions/.env.local`, as the emulator loads them. Variables already set win.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const FUNCTIONS_DIR = resolve(__dirname, "..", "..", "..", "functions");

/** `KEY=value` lines of a dotenv file (comments and blank lines skipped). */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    values[match[1]!] = match[2]!.replace(/^(["'])(.*)\1$/, "$2");
  }
  return values;
}

export function applyFunctionsEnv(env: NodeJS.ProcessEnv = process.env): void {
  const loaded = {
    ...parseDotenv(readFileSync(resolve(FUNCTIONS_DIR, ".env"), "utf8")),
    ...parseDotenv(readFileSync(resolve(FUNCTIONS_DIR, ".env.local"), "utf8")),
    FUNCTIONS_EMULATOR: "true",
  };
  for (const [name, value] of Object.entries(loaded)) env[name] ??= value;
}
