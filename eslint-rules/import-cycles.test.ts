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

test("when two files import each other, then lint fails with import-x/no-cycle on both", () => {
  const { status, results } = lint(
    "eslint-rules/fixtures/cycle/first.ts",
    "eslint-rules/fixtures/cycle/second.ts",
  );
  expect(status).toBe(1);
  expect(results.map((file) => file.messages.map((message) => message.ruleId))).toEqual([
    ["import-x/no-cycle"],
    ["import-x/no-cycle"],
  ]);
});

test("when a cycle closes through a type-only import, then lint fails with alpvault/type-import-cycles on both", () => {
  const { status, results } = lint(
    "eslint-rules/fixtures/type-cycle/first.ts",
    "eslint-rules/fixtures/type-cycle/second.ts",
  );
  expect(status).toBe(1);
  expect(results.map((file) => file.messages.map((message) => message.ruleId))).toEqual([
    ["alpvault/type-import-cycles"],
    ["alpvault/type-import-cycles"],
  ]);
  expect(results[1]?.messages[0]?.message).toContain(
    "eslint-rules/fixtures/type-cycle/second.ts → eslint-rules/fixtures/type-cycle/first.ts → eslint-rules/fixtures/type-cycle/second.ts",
  );
});

test("when one file imports another that imports nothing back, then lint passes", () => {
  const { status, results } = lint(
    "eslint-rules/fixtures/one-way/first.ts",
    "eslint-rules/fixtures/one-way/second.ts",
  );
  expect(results.flatMap((file) => file.messages)).toEqual([]);
  expect(status).toBe(0);
});
