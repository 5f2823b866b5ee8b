/**
 * One jest config, several projects. `npm test` (scripts/test.ts) runs them in order: unit first, then the
 * suites that need the running emulators (conformance, api, browser, exclusive, before-restart) against one
 * stack it starts, after-restart against it started again, and last the tests of npm start itself (start),
 * which start their own.
 */
/**
 * TypeScript through swc (@swc/jest): it only strips types (tsc --noEmit checks them in npm run typecheck),
 * several times faster than ts-jest.
 */
const swcJest = [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx: true },
      target: "es2022",
      transform: { react: { runtime: "automatic" } },
    },
    module: { type: "commonjs" },
  },
];

const common = {
  // jest-environment-node with a new connection pool for Node's fetch in each test file (see the file).
  testEnvironment: "<rootDir>/tests/support/node-environment.cjs",
  transform: { "^.+\\.tsx?$": swcJest },
  moduleNameMapper: {
    "^@alpvault/contracts/(.*)$": "<rootDir>/contracts/src/$1",
    "^@/(.*)$": "<rootDir>/web/src/$1",
  },
  setupFiles: ["<rootDir>/tests/support/block-network.cjs"],
  setupFilesAfterEnv: ["<rootDir>/tests/support/hang-detector.cjs"],
};

/**
 * The set-up of a file that runs the product in its own process (tests/support/in-process/): its log lines
 * to a file, the Functions emulator's environment, its own task queue and APIs.
 */
const IN_PROCESS = [
  ...common.setupFilesAfterEnv,
  "<rootDir>/tests/support/in-process/logs.ts",
  "<rootDir>/tests/support/in-process/environment.ts",
  "<rootDir>/tests/support/in-process/setup.ts",
];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...common,
      displayName: "unit",
      roots: [
        "<rootDir>/contracts/src",
        "<rootDir>/functions/src",
        "<rootDir>/emulators",
        "<rootDir>/eslint-rules",
        "<rootDir>/scripts",
        "<rootDir>/tests/support",
        "<rootDir>/tests/engine",
      ],
      testMatch: ["**/*.test.ts"],
    },
    {
      // Component tests of the web (docs/local-stack.md#tests): React Testing Library on jsdom, the fake API
      // of web/src/testing behind fetch. Vite-only modules are replaced: the build's configuration
      // (import.meta.env) by the emulator build's, and the Firebase SDK by a fake with a signed-in user.
      ...common,
      displayName: "web",
      testEnvironment: "<rootDir>/web/src/testing/jsdom-environment.cjs",
      roots: ["<rootDir>/web/src"],
      testMatch: ["**/*.test.ts", "**/*.test.tsx"],
      moduleNameMapper: {
        "^@/config/env$": "<rootDir>/web/src/testing/env.ts",
        "^(\\./|@/lib/)firebase-sdk$": "<rootDir>/web/src/testing/fake-firebase-sdk.ts",
        ...common.moduleNameMapper,
      },
      setupFilesAfterEnv: [...common.setupFilesAfterEnv, "<rootDir>/web/src/testing/setup.ts"],
    },
    {
      ...common,
      displayName: "firestore-conformance",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/firestore-conformance/**/*.test.ts"],
    },
    {
      // The API served by the test's own process against the stack's emulators, its background work run when
      // the test says so (tests/support/in-process/).
      ...common,
      displayName: "api",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/api/**/*.test.ts"],
      setupFilesAfterEnv: IN_PROCESS,
    },
    {
      // What only the deployed shape shows, through Hosting, the Functions emulator and Cloud Tasks:
      // routing, regional hosts, CORS, body limits, the runtime's own answers, task queues.
      ...common,
      displayName: "e2e",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"],
    },
    {
      ...common,
      displayName: "browser",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/browser/**/*.test.ts"],
      setupFilesAfterEnv: [
        ...IN_PROCESS,
        "<rootDir>/tests/browser/support/setup.ts",
        "<rootDir>/tests/browser/support/network-setup.ts",
      ],
    },
    {
      // A few browser journeys through the whole deployed shape (Hosting, the Functions emulator, Cloud
      // Tasks): the browser files' API answered by the Functions emulator, not the test's own process.
      ...common,
      displayName: "journeys",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/journeys/**/*.test.ts"],
      setupFilesAfterEnv: [...common.setupFilesAfterEnv, "<rootDir>/tests/browser/support/network-setup.ts"],
    },
    {
      // Tests that change what the whole deployment shares (the daily Google budget's ledger) or read the
      // demo organisation as a whole (a restore drill): run alone, one file after another, after the API
      // and browser tests (scripts/test.ts passes --runInBand).
      ...common,
      displayName: "exclusive",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/exclusive/**/*.test.ts"],
      setupFilesAfterEnv: IN_PROCESS,
    },
    {
      // Tests of npm start itself: each starts scripts/start.ts on a copy of emulator-data/ and breaks it, so
      // they need the stack's ports free and run after the other stacks have stopped.
      ...common,
      displayName: "start",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/start/**/*.test.ts"],
    },
    {
      ...common,
      displayName: "before-restart",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/restart/before-restart.test.ts"],
    },
    {
      ...common,
      displayName: "after-restart",
      roots: ["<rootDir>/tests"],
      testMatch: ["<rootDir>/tests/restart/after-restart.test.ts"],
    },
  ],
};
