import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..");

interface LintedFile {
  filePath: string;
  messages: { ruleId: string | null; message: string }[];
}

/** Runs the repository's ESLint (its own eslint.config.mjs) on fixture files the config otherwise ignores. */
function lint(...files: string[]): { status: number | null; results: LintedFile[] } {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "eslint", "bin", "eslint.js"), "--no-ignore", "--format", "json", ...files],
    { cwd: ROOT, encoding: "utf8" },
  );
  return { status: run.status, results: JSON.parse(run.stdout) as LintedFile[] };
}

const FIXTURES = ["cycle", "type-cycle", "one-way"].flatMap((folder) => [
  `eslint-rules/fixtures/${folder}/first.ts`,
  `eslint-rules/fixtures/${folder}/second.ts`,
]);

/**
 * Every fixture in one ESLint run (each run loads the whole config and its plugins, seconds of CPU); each
 * test reads its own files' messages. ESLint's exit status is 1 when any file has an error, 0 when none.
 */
let linted: { status: number | null; results: LintedFile[] };
beforeAll(() => {
  linted = lint(...FIXTURES);
});

function messagesOf(folder: string): LintedFile["messages"][] {
  return ["first.ts", "second.ts"].map(
    (name) =>
      linted.results.find((file) => file.filePath === join(ROOT, "eslint-rules", "fixtures", folder, name))
        ?.messages ?? [{ ruleId: "missing", message: `${folder}/${name} was not linted` }],
  );
}

test("when two files import each other, then lint fails with alpvault/import-cycles on both, naming the cycle", () => {
  const messages = messagesOf("cycle");
  expect(linted.status).toBe(1);
  expect(messages.map((file) => file.map((message) => message.ruleId))).toEqual([
    ["alpvault/import-cycles"],
    ["alpvault/import-cycles"],
  ]);
  expect(messages[0]?.[0]?.message).toContain(
    "Import cycle: eslint-rules/fixtures/cycle/first.ts → eslint-rules/fixtures/cycle/second.ts → eslint-rules/fixtures/cycle/first.ts",
  );
});

test("when a cycle closes through a type-only import, then lint fails with alpvault/import-cycles on both", () => {
  const messages = messagesOf("type-cycle");
  expect(linted.status).toBe(1);
  expect(messages.map((file) => file.map((message) => message.ruleId))).toEqual([
    ["alpvault/import-cycles"],
    ["alpvault/import-cycles"],
  ]);
  expect(messages[1]?.[0]?.message).toContain(
    "eslint-rules/fixtures/type-cycle/second.ts → eslint-rules/fixtures/type-cycle/first.ts → eslint-rules/fixtures/type-cycle/second.ts",
  );
});

test("when one file imports another that imports nothing back, then lint passes", () => {
  // No message on either file: ESLint fails a run only for a file's error message.
  expect(linted.results).toHaveLength(FIXTURES.length);
  expect(messagesOf("one-way").flat()).toEqual([]);
});
