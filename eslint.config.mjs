import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importBoundaries from "./eslint-rules/import-boundaries.cjs";
import typeImportCycles from "./eslint-rules/type-import-cycles.cjs";
import firestoreInRepos from "./eslint-rules/firestore-in-repos.cjs";
import collectionOwners from "./eslint-rules/collection-owners.cjs";
import noWallClockWaits from "./eslint-rules/no-wall-clock-waits.cjs";
import decodedDocuments from "./eslint-rules/decoded-documents.cjs";

/**
 * Import cycles: import-x's `no-cycle`, resolving imports as TypeScript does (the `@/` and
 * `@alpvault/contracts/` aliases included), and `alpvault/type-import-cycles` for the cycles that close
 * through `import type`, which `no-cycle` does not follow. `CYCLE_CHECKED` lists the folders they cover.
 */
const { "import-x/resolver": _typescriptResolver, ...typescriptSettings } =
  importX.flatConfigs.typescript.settings;
const importCycles = (files) => ({
  files,
  plugins: { "import-x": importX },
  settings: {
    ...typescriptSettings,
    "import-x/resolver-next": [
      createTypeScriptImportResolver({
        project: [
          "functions/tsconfig.json",
          "web/tsconfig.json",
          "contracts/tsconfig.json",
          "scripts/tsconfig.json",
          "tests/tsconfig.json",
          "emulators/*/tsconfig.json",
        ],
        noWarnOnMultipleProjects: true,
      }),
    ],
  },
  rules: { "import-x/no-cycle": "error", "alpvault/type-import-cycles": "error" },
});
const CYCLE_CHECKED = ["functions", "contracts", "web", "scripts", "tests", "eslint-rules", "emulators"];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "functions/lib/**",
      "web/dist/**",
      "tests/artifacts/**",
      "emulator-data/**",
      "coverage/**",
      "patches/**",
      ".tmp/**",
      "eslint-rules/fixtures/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: {
      alpvault: {
        rules: {
          "import-boundaries": importBoundaries,
          "type-import-cycles": typeImportCycles,
          "firestore-in-repos": firestoreInRepos,
          "collection-owners": collectionOwners,
          "no-wall-clock-waits": noWallClockWaits,
          "decoded-documents": decodedDocuments,
        },
      },
    },
    rules: {
      "alpvault/import-boundaries": "error",
      "alpvault/firestore-in-repos": "error",
      "alpvault/collection-owners": "error",
      "alpvault/no-wall-clock-waits": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  importCycles(CYCLE_CHECKED.map((folder) => `${folder}/**/*.{ts,tsx,mts,cts}`)),
  {
    files: ["web/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Stored documents are decoded, never cast. Not in tests/: the suites read what they arranged, broken
    // on purpose at times, and the Firestore conformance suite reads documents of no product kind.
    files: ["functions/**/*.ts", "scripts/**/*.ts", "emulators/**/*.ts"],
    rules: { "alpvault/decoded-documents": "error" },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    ignores: ["web/src/config/env.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.meta.name='import'][property.name='env']",
          message: "Read env only in config/env.ts",
        },
      ],
    },
  },
  {
    files: ["functions/src/**/*.ts"],
    ignores: ["functions/src/config.ts", "functions/src/**/*.test.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration only in functions/src/config.ts" },
      ],
    },
  },
);
