/**
 * Set-up of every test file that runs the product in its own process (setupFilesAfterEnv of the jest
 * projects `api` and `browser`, after `environment.ts`): the test's own task queue in place
 * of Cloud Tasks, and the product's APIs served from this process for the file's duration (`logs.ts`, set
 * up before it, has sent the product's log lines to a file).
 */
import { harness, installHarness } from "./harness";
import { serveApis, type ServedApis } from "./api-servers";
import { serveApisHere } from "../regions";

installHarness();

let apis: ServedApis | undefined;

beforeAll(async () => {
  apis = await serveApis();
  serveApisHere(apis.origins);
});

afterAll(async () => {
  // Work the file left being delivered ends before the APIs and emulators it uses go.
  await harness().queue.settled();
  serveApisHere(undefined);
  await apis?.close();
});
