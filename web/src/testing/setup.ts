/// <reference types="jest" />
/**
 * Set-up of every component test (jest's `web` project, `setupFilesAfterEnv`): Testing Library's matchers;
 * before each test a clean browser storage, the signed-in test user and no downloads (`downloads.ts`); after
 * it the screen unmounted and the fake API's contract violations reported as the test's failure. Being part of the web's TypeScript
 * program, it also gives every test file there jest's and Testing Library's matcher types.
 */
import "@testing-library/jest-dom";
import { cleanup, configure } from "@testing-library/react";
import i18n from "i18next";
import { installDownloads } from "./downloads";
import { fakeFirebase } from "./fake-firebase-sdk";
import { installedFakeApi, uninstallFakeApi } from "./fake-api";

// How long findBy… and waitFor wait for what the test expects before failing: a hang bound, not a speed
// check. npm test runs these tests beside lint and typecheck on the same cores, where Testing Library's 1 s
// default fails a screen that is merely slow to get a core.
configure({ asyncUtilTimeout: 30_000 });

beforeEach(() => {
  window.localStorage.clear();
  fakeFirebase.reset();
  installDownloads();
});

afterEach(async () => {
  cleanup();
  // A test that chose another language leaves the next one in English, as a fresh page starts.
  if (i18n.isInitialized && i18n.language !== "en") await i18n.changeLanguage("en");
  const api = installedFakeApi();
  uninstallFakeApi();
  api?.assertNoViolations();
});
