import { join } from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require("./firestore-in-repos.cjs") as import("eslint").Rule.RuleModule;

const ROOT = join(__dirname, "..");
const at = (file: string): string => join(ROOT, file);

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

tester.run("firestore-in-repos", rule, {
  valid: [
    // A repository reaches its collections.
    {
      filename: at("functions/src/policies/repo.ts"),
      code: `import { organizationRef } from "../lib/tenancy";
        export const all = (scope) => organizationRef(scope).collection("policies").get();`,
    },
    {
      filename: at("functions/src/backups/retention/repo.ts"),
      code: "const batch = db.batch(); await db.runTransaction(async () => undefined);",
    },
    // A folder with several repositories names them `<what>-repo.ts`.
    {
      filename: at("functions/src/backups/catalog/runs-repo.ts"),
      code: `import { organizationRef } from "../../lib/tenancy";
        export const run = (scope, id) => organizationRef(scope).collection("backupRuns").doc(id).get();`,
    },
    // lib/ creates the clients.
    { filename: at("functions/src/lib/tenancy.ts"), code: 'regionDb("x").collection("organizations");' },
    // Tests arrange their data.
    {
      filename: at("functions/src/backups/worker.test.ts"),
      code: 'await organizationRef(scope).collection("alerts").get();',
    },
    // A service calls its repository, and may name the Scope type.
    {
      filename: at("functions/src/backups/service.ts"),
      code: 'import type { Scope } from "../lib/tenancy"; await storedPolicies(scope);',
    },
    {
      filename: at("functions/src/backups/service.ts"),
      code: 'import { type organizationRef } from "../lib/tenancy";',
    },
    // Outside functions/src the rule does not apply.
    { filename: at("scripts/seed.ts"), code: 'await db.collection("organizations").get();' },
  ],
  invalid: [
    {
      filename: at("functions/src/backups/worker.ts"),
      code: `import { organizationRef } from "../lib/tenancy";
        await organizationRef(scope).collection("alerts").doc("a").set({});`,
      errors: [
        { messageId: "firestore", data: { name: "organizationRef" } },
        { messageId: "firestore", data: { name: ".doc()" } },
        { messageId: "firestore", data: { name: ".collection()" } },
        { messageId: "firestore", data: { name: "organizationRef" } },
      ],
    },
    {
      filename: at("functions/src/backups/data-keys.ts"),
      code: 'import { regionDb, globalDb } from "../lib/firebase";',
      errors: [{ messageId: "firestore" }, { messageId: "firestore" }],
    },
    {
      filename: at("functions/src/backups/retention/gc.ts"),
      code: "await ref.firestore.runTransaction(async () => undefined); const batch = db.batch();",
      errors: [
        { messageId: "firestore", data: { name: ".runTransaction()" } },
        { messageId: "firestore", data: { name: ".batch()" } },
      ],
    },
    // Only `repo.ts` and `<what>-repo.ts` are repositories.
    ...["functions/src/backups/catalog/repository.ts", "functions/src/backups/catalog/repo-runs.ts"].map(
      (filename) => ({
        filename: at(filename),
        code: 'const snapshot = await ref.collection("backupRuns").get();',
        errors: [{ messageId: "firestore", data: { name: ".collection()" } }],
      }),
    ),
    {
      filename: at("functions/src/system/service.ts"),
      code: "const db = tenancy.tenantDb(scope);",
      errors: [{ messageId: "firestore", data: { name: "tenantDb" } }],
    },
    {
      filename: at("functions/src/backups/service.ts"),
      code: 'await db.collectionGroup("items").get(); await db.getAll(a, b);',
      errors: [
        { messageId: "firestore", data: { name: ".collectionGroup()" } },
        { messageId: "firestore", data: { name: ".getAll()" } },
      ],
    },
  ],
});
