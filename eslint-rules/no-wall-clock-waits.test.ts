import { join } from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require("./no-wall-clock-waits.cjs") as import("eslint").Rule.RuleModule;

const ROOT = join(__dirname, "..");
const at = (file: string): string => join(ROOT, file);

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

tester.run("no-wall-clock-waits", rule, {
  valid: [
    // Background work delivered when the test says so.
    { filename: at("tests/api/backups.test.ts"), code: "await drainTasks(); await dispatch(id);" },
    // The one wait through the whole stack, bounded by a hang detector.
    {
      filename: at("tests/support/wait.ts"),
      code: "await new Promise((resolve) => setTimeout(resolve, 250));",
    },
    // A page waited for through what it shows.
    { filename: at("tests/browser/backups.test.ts"), code: 'await page.getByRole("alert").waitFor();' },
    // Jest's own timeout is not a wait; a turn of the event loop is not wall-clock time.
    { filename: at("tests/api/backups.test.ts"), code: "jest.setTimeout(60_000);" },
    {
      filename: at("tests/api/backups.test.ts"),
      code: "await new Promise((resolve) => setImmediate(resolve));",
    },
    // Unit tests of timing code keep their timers (they drive clocks of their own).
    { filename: at("tests/engine/quota-caller.test.ts"), code: "setTimeout(done, 10);" },
  ],
  invalid: [
    {
      filename: at("tests/api/backups.test.ts"),
      code: "await new Promise((resolve) => setTimeout(resolve, 6000));",
      errors: [{ messageId: "timer" }],
    },
    {
      filename: at("tests/support/backup-runs.ts"),
      code: "while (Date.now() < until) { await new Promise((r) => globalThis.setTimeout(r, 500)); }",
      errors: [{ messageId: "timer" }],
    },
    {
      filename: at("tests/browser/routes.test.ts"),
      code: "await page.waitForTimeout(500);",
      errors: [{ messageId: "timer" }],
    },
    {
      filename: at("tests/e2e/residency.test.ts"),
      code: "const poll = setInterval(check, 100);",
      errors: [{ messageId: "timer" }],
    },
  ],
});
