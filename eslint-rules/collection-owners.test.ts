import { join } from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require("./collection-owners.cjs") as import("eslint").Rule.RuleModule;

const ROOT = join(__dirname, "..");
const at = (file: string): string => join(ROOT, file);
const listing = (...pairs: string[]) => [{ crossModuleCollections: pairs }];

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

tester.run("collection-owners", rule, {
  valid: [
    // A module's repositories name its own collections, at any depth.
    {
      filename: at("functions/src/policies/repo.ts"),
      code: 'organizationRef(scope).collection("policies").doc(id).get();',
      options: listing(),
    },
    {
      filename: at("functions/src/backups/catalog/runs-repo.ts"),
      code: 'ref.collection("backupRuns").doc(runId); db.collectionGroup("versions").get();',
      options: listing(),
    },
    // `meta` and `items` have no owner; a collection named by a variable is not checked.
    {
      filename: at("functions/src/drills/repo.ts"),
      code: 'ref.collection("meta").doc("drills"); run.collection("items"); ref.collection(name);',
      options: listing(),
    },
    // A listed crossing, lib/ (which builds the references) and tests.
    {
      filename: at("functions/src/search/repo.ts"),
      code: 'organizationRef(scope).collection("resources").doc(id).collection("items");',
      options: listing("search/repo.ts → resources"),
    },
    {
      filename: at("functions/src/lib/tenancy.ts"),
      code: 'db.collection("organizations");',
      options: listing(),
    },
    {
      filename: at("functions/src/billing/service.test.ts"),
      code: 'ref.collection("alerts").get();',
      options: listing(),
    },
    // Outside functions/src the rule does not apply.
    { filename: at("tests/api/backups.test.ts"), code: 'ref.collection("items").get();', options: listing() },
  ],
  invalid: [
    {
      filename: at("functions/src/search/repo.ts"),
      code: 'organizationRef(scope).collection("resources").doc(id).collection("versions");',
      options: listing("search/repo.ts → resources"),
      errors: [{ messageId: "owner", data: { collection: "versions", owner: "backups" } }],
    },
    {
      filename: at("functions/src/billing/repo.ts"),
      code: 'transaction.create(organizationRef(scope).collection("alerts").doc(), alert);',
      options: listing(),
      errors: [{ messageId: "owner", data: { collection: "alerts", owner: "resources" } }],
    },
    {
      filename: at("functions/src/policies/service.ts"),
      code: 'db.collectionGroup("backupRuns").where("state", "==", "pending").get();',
      options: listing(),
      errors: [{ messageId: "owner", data: { collection: "backupRuns", owner: "backups" } }],
    },
    // A listed crossing that is gone must leave the list.
    {
      filename: at("functions/src/secrets/repo.ts"),
      code: 'organizationRef(scope).collection("secrets").get();',
      options: listing("secrets/repo.ts → dataKeys"),
      errors: [{ messageId: "staleException" }],
    },
  ],
});
