import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import importBoundaries from "./eslint-rules/import-boundaries.cjs";
import importCycleRule from "./eslint-rules/import-cycles.cjs";
import firestoreInRepos from "./eslint-rules/firestore-in-repos.cjs";
import collectionOwners from "./eslint-rules/collection-owners.cjs";
import noWallClockWaits from "./eslint-rules/no-wall-clock-waits.cjs";
import decodedDocuments from "./eslint-rules/decoded-documents.cjs";
import noServiceBranches from "./eslint-rules/no-service-branches.cjs";

/**
 * Import cycles, value and type imports alike: `alpvault/import-cycles` (eslint-rules/import-cycles.cjs)
 * builds the repository's import graph once per run, resolving imports as TypeScript does (the `@/` and
 * `@alpvault/contracts/` aliases included). `CYCLE_CHECKED` lists the folders it covers.
 */
const importCycles = (files) => ({ files, rules: { "alpvault/import-cycles": "error" } });
/**
 * Type-aware rules (lost promises, exhaustive switches): each file is typed by the first of `TYPE_PROGRAMS`
 * that includes it, so every file linted here belongs to one. The packages that share compiler options are
 * one program each (the server side: functions, contracts, the emulators, the lint rules; the suites: tests
 * and scripts), as `npm run typecheck` checks them, instead of a program per package that would type the
 * contracts and Node's types once for each. The rule tests' fixtures come first: their small programs are
 * all a rule test builds.
 */
const TYPE_PROGRAMS = [
  "./functions/lint-fixtures/tsconfig.json",
  "./web/src/lint-fixtures/tsconfig.json",
  "./tsconfig.server.json",
  "./tsconfig.suites.json",
  "./web/tsconfig.json",
];
const TYPE_CHECKED = [
  "functions/**/*.ts",
  "scripts/**/*.ts",
  "emulators/**/*.ts",
  // Not eslint-rules/fixtures/: the import-cycle tests lint them in a process of their own each time.
  "eslint-rules/*.ts",
  "tests/**/*.ts",
  "web/src/**/*.{ts,tsx}",
];

/**
 * eslint-plugin-react-hooks' rules from the React Compiler's checks that hold without the compiler: a
 * render stays pure (no `Date.now()`, no ref read or written, no global changed), components are not
 * created while rendering, state is not set while rendering. Left off: the compiler's own concerns
 * (`preserve-manual-memoization`, `incompatible-library`, `unsupported-syntax`, `config`, `gating`; the
 * console is not built with the compiler) and `set-state-in-effect`, which reports the effects that copy
 * loaded data into editable state (billing switches, drill settings, the assign-policy dialog, search and
 * browse page tokens, the resources page reset, the storage banner's dismissals).
 */
const REACT_COMPILER_RULES = Object.fromEntries(
  [
    "static-components",
    "use-memo",
    "void-use-memo",
    "immutability",
    "globals",
    "refs",
    "purity",
    "set-state-in-render",
    "error-boundaries",
    "component-hook-factories",
  ].map((rule) => [`react-hooks/${rule}`, "error"]),
);

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
      "**/lint-fixtures/**",
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
          "import-cycles": importCycleRule,
          "firestore-in-repos": firestoreInRepos,
          "collection-owners": collectionOwners,
          "no-wall-clock-waits": noWallClockWaits,
          "decoded-documents": decodedDocuments,
          "no-service-branches": noServiceBranches,
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
    // Services are plug-ins: no comparison with a service's name outside its folder and the registry
    // (eslint-rules/no-service-branches.cjs; the branches from before the registry are counted in its
    // baseline, which only shrinks).
    files: ["functions/src/**/*.ts", "web/src/**/*.{ts,tsx}", "contracts/src/**/*.ts"],
    rules: { "alpvault/no-service-branches": "error" },
  },
  {
    files: TYPE_CHECKED,
    languageOptions: { parserOptions: { project: TYPE_PROGRAMS, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      // A switch over a union names every member, `default` or not: a member added later (a new Workspace
      // service, failure reason or role) is then reported at every switch that does not handle it, instead
      // of falling silently into a default written for the members of its day. A switch meant as "these
      // few, and all the rest alike" is an `if`. A `default` beside every member stays allowed, for values
      // from outside that the types do not promise.
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: false },
      ],
    },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      ...REACT_COMPILER_RULES,
    },
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
