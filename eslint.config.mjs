import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importBoundaries from "./eslint-rules/import-boundaries.cjs";

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
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { alpvault: { rules: { "import-boundaries": importBoundaries } } },
    rules: {
      "alpvault/import-boundaries": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // No import cycles inside or between the emulators (imports resolved as TypeScript resolves them).
    files: ["emulators/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      ...Object.fromEntries(
        Object.entries(importX.flatConfigs.typescript.settings).filter(
          ([key]) => key !== "import-x/resolver",
        ),
      ),
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: ["emulators/*/tsconfig.json"],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { "import-x/no-cycle": "error" },
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
