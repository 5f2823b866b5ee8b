import path from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require("./no-service-branches.cjs") as import("eslint").Rule.RuleModule;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const baseline = require("./service-branches-baseline.json") as Record<string, number>;

const ROOT = path.resolve(__dirname, "..");
const at = (relative: string) => path.join(ROOT, relative);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

/** A baseline of one file, given as the rule's option, to lint code with as many branches, more and fewer. */
const baselineFile = "functions/src/search/older.ts";
const allowed = 3;
const options = [{ baseline: { [baselineFile]: allowed } }];
const branches = (count: number) =>
  Array.from({ length: count }, (_, index) => `if (kind === "gmail") n += ${index};`).join("\n");

tester.run("no-service-branches", rule, {
  valid: [
    // Asking the registry, or naming a service without comparing with it.
    {
      code: 'const source = registry.service(kind).source(user); const label = "gmail";',
      filename: at("functions/src/search/new.ts"),
    },
    // The service's own folder and the registries may compare with its name.
    { code: 'if (kind === "gmail") run();', filename: at("functions/src/engine/gmail/source.ts") },
    { code: 'switch (kind) { case "drive": break; }', filename: at("functions/src/engine/drive/source.ts") },
    { code: 'if (kind === "calendar") run();', filename: at("functions/src/engine/services.ts") },
    { code: 'if (kind === "contacts") run();', filename: at("contracts/src/services.ts") },
    // Tests compare freely.
    { code: 'expect(kind === "gmail").toBe(true);', filename: at("functions/src/search/service.test.ts") },
    { code: 'if (kind === "drive") x();', filename: at("web/src/testing/fake-api.ts") },
    // A baseline file with as many branches as its count.
    { code: branches(allowed), filename: at(baselineFile), options },
  ],
  invalid: [
    {
      code: 'if (service === "gmail") a(); else if (service !== "drive") b();',
      filename: at("functions/src/search/new.ts"),
      errors: [{ messageId: "branch" }, { messageId: "branch" }],
    },
    {
      code: 'switch (kind) { case "calendar": a(); break; case "other": break; }',
      filename: at("web/src/features/search/components/new-card.tsx"),
      errors: [{ messageId: "branch" }],
    },
    {
      code: 'const mail = item.kind === "gmail-message";',
      filename: at("contracts/src/new.ts"),
      errors: [{ messageId: "branch" }],
    },
    // One more than the baseline allows: every branch of the file is reported.
    {
      code: branches(allowed + 1),
      filename: at(baselineFile),
      options,
      errors: Array.from({ length: allowed + 1 }, () => ({ messageId: "branch" })),
    },
    // Fewer than the baseline: the count there is to be lowered.
    { code: branches(allowed - 1), filename: at(baselineFile), options, errors: [{ messageId: "lower" }] },
    // The product's baseline is empty: a branch anywhere outside the service folders is reported.
    {
      code: 'if (kind === "gmail") n += 1;',
      filename: at("web/src/features/search/components/snapshot-browser.tsx"),
      errors: [{ messageId: "branch" }],
    },
  ],
});

test("the baseline is empty: no service branch is left", () => {
  expect(baseline).toEqual({});
});
