/**
 * Shared helpers for the Firestore conformance suite. The suite talks to whatever emulator
 * FIRESTORE_EMULATOR_HOST points at (ours or the official one) through firebase-admin, uses only
 * public APIs, and isolates tests by giving each its own uniquely named collections.
 */
import { randomBytes } from "node:crypto";

import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { getFirestore, type CollectionReference, type Firestore } from "firebase-admin/firestore";

export const PROJECT_ID = "demo-alpvault";

/** gRPC status codes Firestore reports (error.code on firebase-admin errors). */
export const Status = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  FAILED_PRECONDITION: 9,
} as const;

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error(
    "FIRESTORE_EMULATOR_HOST is not set. Start a Firestore emulator " +
      "(e.g. `npx tsx emulators/firestore/src/cli.ts --port 8181`) and run the suite with " +
      "FIRESTORE_EMULATOR_HOST=127.0.0.1:8181 METADATA_SERVER_DETECTION=none.",
  );
}

let app: App | undefined;

/** The default database, or a named one (`getFirestore(app, databaseId)`). */
export function firestore(databaseId?: string): Firestore {
  app ??= initializeApp({ projectId: PROJECT_ID }, `conformance-${randomBytes(4).toString("hex")}`);
  return databaseId ? getFirestore(app, databaseId) : getFirestore(app);
}

export async function closeFirestore(): Promise<void> {
  if (app) await deleteApp(app);
  app = undefined;
}

/** A collection id no other test (or earlier run) uses. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
}

/** Resolves with the error's gRPC code when `promise` rejects; fails the test when it resolves. */
export async function rejectionCode(promise: Promise<unknown>): Promise<number | string | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: number | string }).code;
  }
  throw new Error("Expected the operation to fail, but it succeeded.");
}

export const ids = (snapshot: { docs: { id: string }[] }): string[] => snapshot.docs.map((d) => d.id);

/**
 * A collection whose collection-group id is `group` (so the composite indexes declared for it in
 * tests/firestore-conformance/firestore.indexes.json apply) below a parent document no other test uses.
 */
export function indexedCollection(db: Firestore, group: string): CollectionReference {
  return db.collection(uniqueId("indexed")).doc("parent").collection(group);
}

let enforcing: Promise<boolean> | undefined;

/**
 * Whether the emulator refuses queries without their index, as production does: ours does, the official
 * emulator does not. The official one answers plain HTTP on its port (`GET /` → "Ok"); ours speaks only
 * gRPC (HTTP/2), so an HTTP/1.1 request fails.
 */
export function emulatorEnforcesIndexes(): Promise<boolean> {
  enforcing ??= fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/`, {
    signal: AbortSignal.timeout(5000),
  }).then(
    () => false,
    () => true,
  );
  return enforcing;
}
