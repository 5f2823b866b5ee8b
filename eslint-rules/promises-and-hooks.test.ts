import { join } from "node:path";
import { ESLint } from "eslint";

const ROOT = join(__dirname, "..");

/**
 * The repository's own configuration (eslint.config.mjs), one instance for every file: the type-aware rules
 * build each fixture folder's program once. The fixtures are ignored by `npm run lint`, linted here alone.
 */
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, "eslint.config.mjs"), ignore: false });

async function ruleIds(fixture: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintFiles([join(ROOT, fixture)]);
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe("lost promises", () => {
  test("when a functions file drops a promise, then lint fails with no-floating-promises", async () => {
    expect(await ruleIds("functions/lint-fixtures/floating-promise.ts")).toEqual([
      "@typescript-eslint/no-floating-promises",
    ]);
  });

  test("when an async function is passed where a void callback is expected, then lint fails with no-misused-promises", async () => {
    expect(await ruleIds("functions/lint-fixtures/misused-promise.ts")).toEqual([
      "@typescript-eslint/no-misused-promises",
    ]);
  });

  test("when a value that is not a promise is awaited, then lint fails with await-thenable", async () => {
    expect(await ruleIds("functions/lint-fixtures/await-non-promise.ts")).toEqual([
      "@typescript-eslint/await-thenable",
    ]);
  });

  test("when a switch's default hides a member of the union, then lint fails with switch-exhaustiveness-check", async () => {
    expect(await ruleIds("functions/lint-fixtures/switch-with-default.ts")).toEqual([
      "@typescript-eslint/switch-exhaustiveness-check",
    ]);
  });

  test("when promises are awaited, returned or caught, then lint passes", async () => {
    expect(await ruleIds("functions/lint-fixtures/handled-promises.ts")).toEqual([]);
  });

  test("when a web click handler is async, then lint fails with no-misused-promises", async () => {
    expect(await ruleIds("web/src/lint-fixtures/async-handler.tsx")).toEqual([
      "@typescript-eslint/no-misused-promises",
    ]);
  });
});

describe("hooks", () => {
  test("when a web component calls a hook conditionally, then lint fails with rules-of-hooks", async () => {
    expect(await ruleIds("web/src/lint-fixtures/conditional-hook.tsx")).toEqual([
      "react-hooks/rules-of-hooks",
    ]);
  });

  test("when an effect reads a prop it does not list, then lint fails with exhaustive-deps", async () => {
    expect(await ruleIds("web/src/lint-fixtures/missing-dependency.tsx")).toEqual([
      "react-hooks/exhaustive-deps",
    ]);
  });

  test("when hooks are at the top and effects name what they read, then lint passes", async () => {
    expect(await ruleIds("web/src/lint-fixtures/correct-hooks.tsx")).toEqual([]);
  });
});

describe("where the rules apply", () => {
  const PROMISE_RULES = [
    "@typescript-eslint/no-floating-promises",
    "@typescript-eslint/no-misused-promises",
    "@typescript-eslint/await-thenable",
    "@typescript-eslint/switch-exhaustiveness-check",
  ];
  const severities = async (file: string, rules: string[]) => {
    const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as {
      rules: Record<string, unknown[]>;
    };
    return rules.map((rule) => config.rules[rule]?.[0]);
  };

  test.each([
    "functions/src/index.ts",
    "scripts/start.ts",
    "emulators/kit/src/http-server.ts",
    "eslint-rules/import-cycles.test.ts",
    "tests/support/workspace.ts",
    "web/src/app/router.tsx",
  ])("when a file is in %s, then the promise rules are errors", async (file) => {
    expect(await severities(file, PROMISE_RULES)).toEqual(PROMISE_RULES.map(() => 2));
  });

  test("when a file is in web/src, then the hook rules are errors", async () => {
    const rules = ["react-hooks/rules-of-hooks", "react-hooks/exhaustive-deps", "react-hooks/purity"];
    expect(await severities("web/src/app/router.tsx", rules)).toEqual(rules.map(() => 2));
  });
});
