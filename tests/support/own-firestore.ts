/**
 * A Firestore emulator of a test file's own, in the test's process on a free port (strict indexes, as
 * everywhere), for tests that assert on the emulator's own read counts: the stack's scheduler and workers
 * read the stack's Firestore all the time. Started before the file's tests, before any Firestore client
 * exists (firebase-admin reads the address when a database is first used); the stack's address is given
 * back after them (files may share this process).
 */
import { deleteApp, getApps, initializeApp } from "firebase-admin/app";
import { startFirestore, type RunningFirestore } from "../../emulators/firestore/src/index";
import { freePort } from "../../scripts/ports";
import { stackEnv } from "./stack-env";

/** Registers the file's emulator; the answer gives it once the file's tests run. */
export function firestoreOfThisFile(): () => RunningFirestore {
  let emulator: RunningFirestore | undefined;
  const stackHost = process.env.FIRESTORE_EMULATOR_HOST;
  beforeAll(async () => {
    const port = await freePort();
    emulator = await startFirestore({ port });
    process.env.FIRESTORE_EMULATOR_HOST = `${emulator.host}:${port}`;
    if (getApps().length === 0) initializeApp({ projectId: stackEnv.projectId });
  });
  afterAll(async () => {
    await Promise.all(getApps().map((app) => deleteApp(app)));
    await emulator?.stop();
    if (stackHost === undefined) delete process.env.FIRESTORE_EMULATOR_HOST;
    else process.env.FIRESTORE_EMULATOR_HOST = stackHost;
  });
  return () => {
    if (!emulator) throw new Error("The test file's Firestore emulator is not started yet");
    return emulator;
  };
}
