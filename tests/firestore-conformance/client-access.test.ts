/**
 * Client access. Alpvault's only Firestore rules deny every client read and write (`firestore.rules`,
 * https://firebase.google.com/docs/firestore/security/rules-structure), so in production only the Admin
 * SDK reaches data and a client gets PERMISSION_DENIED, which the client SDK reports as a FirestoreError
 * with code `permission-denied` (https://firebase.google.com/docs/firestore/security/get-started).
 *
 * These cases use the Firebase client SDK (`firebase/firestore`) as a browser or an attacker's script
 * would, against the default and a named database: without signing in, with a mock user token
 * (`connectFirestoreEmulator(…, { mockUserToken })`) and, when an Auth emulator is reachable
 * (FIREBASE_AUTH_EMULATOR_HOST), as a user signed in with e-mail and password. firebase-admin seeds the
 * data first and checks at the end that nothing was changed or added.
 */
import { deleteApp, initializeApp, type FirebaseApp } from "firebase/app";
import { connectAuthEmulator, createUserWithEmailAndPassword, getAuth } from "firebase/auth";
import {
  collection,
  connectFirestoreEmulator,
  deleteDoc,
  doc,
  getCountFromServer,
  getDoc,
  getDocs,
  getFirestore as getClientFirestore,
  query,
  runTransaction,
  setDoc,
  setLogLevel,
  terminate,
  updateDoc,
  where,
  writeBatch,
  type Firestore as ClientFirestore,
} from "firebase/firestore";
import type { Timestamp } from "firebase-admin/firestore";

import { closeFirestore, firestore, PROJECT_ID, uniqueId } from "./support";

/** A refused call fails within this time; a call that neither succeeds nor fails by then is a hang. */
const CALL_TIMEOUT_MS = 10_000;
jest.setTimeout(3 * CALL_TIMEOUT_MS);

// The SDK logs every refused write and listen as a warning; the assertions say what matters.
setLogLevel("silent");

const emulatorHost = process.env.FIRESTORE_EMULATOR_HOST ?? "";
const hostname = emulatorHost.slice(0, emulatorHost.lastIndexOf(":")).replace(/^\[|\]$/g, "");
const port = Number(emulatorHost.slice(emulatorHost.lastIndexOf(":") + 1));
const authEmulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;

const DATABASES = [
  { label: "the default database", id: undefined },
  { label: "the named database region-ch", id: "region-ch" },
] as const;
type DatabaseId = (typeof DATABASES)[number]["id"];

const name = uniqueId("client-access");
const SEEDED = { org: "victim", secret: "mailbox-key", n: 1 };
const PLANTED = { org: "attacker" };

type ClientKind = "anonymous" | "mock user token" | "signed-in user";
const CLIENTS: { kind: ClientKind; label: string; available: boolean }[] = [
  { kind: "anonymous", label: "a client that has not signed in", available: true },
  {
    kind: "mock user token",
    label: "a client with a mock user token (user_id attacker)",
    available: true,
  },
  {
    kind: "signed-in user",
    label: "a user signed in with e-mail and password (Auth emulator)",
    available: Boolean(authEmulatorHost),
  },
];

type Operation = (db: ClientFirestore) => Promise<unknown>;
const seeded = (db: ClientFirestore) => doc(db, name, "seeded");
const planted = (db: ClientFirestore) => doc(db, name, "planted");
const OPERATIONS: [string, Operation][] = [
  ["getDoc", (db) => getDoc(seeded(db))],
  ["getDocs (query)", (db) => getDocs(query(collection(db, name), where("org", "==", "victim")))],
  ["getCountFromServer", (db) => getCountFromServer(collection(db, name))],
  ["setDoc (new document)", (db) => setDoc(planted(db), PLANTED)],
  ["setDoc (overwrite)", (db) => setDoc(seeded(db), PLANTED)],
  ["updateDoc", (db) => updateDoc(seeded(db), { secret: "stolen" })],
  ["deleteDoc", (db) => deleteDoc(seeded(db))],
  [
    "writeBatch commit",
    (db) => {
      const batch = writeBatch(db);
      batch.set(planted(db), PLANTED);
      batch.update(seeded(db), { secret: "stolen" });
      return batch.commit();
    },
  ],
  [
    "runTransaction (read, then write)",
    (db) =>
      runTransaction(db, async (transaction) => {
        const snapshot = await transaction.get(seeded(db));
        transaction.update(seeded(db), { n: Number(snapshot.get("n") ?? 0) + 1 });
      }),
  ],
  [
    "runTransaction (write only)",
    (db) =>
      runTransaction(db, async (transaction) => {
        transaction.set(planted(db), PLANTED);
      }),
  ],
];

/** The client SDK's error code when `operation` fails; fails the test when it succeeds or hangs. */
async function refusalCode(operation: Promise<unknown>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    // eslint-disable-next-line alpvault/no-wall-clock-waits -- a hang detector raced against the call, not a wait
    timer = setTimeout(
      () => reject(new Error(`Neither refused nor answered within ${CALL_TIMEOUT_MS} ms`)),
      CALL_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([operation, hang]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("Neither refused")) throw error;
    return (error as { code?: string }).code;
  } finally {
    clearTimeout(timer);
  }
  throw new Error("Expected the client to be refused, but the call succeeded.");
}

const apps: FirebaseApp[] = [];
const clients = new Map<ClientKind, Map<DatabaseId, ClientFirestore>>();
const seededUpdateTimes = new Map<DatabaseId, Timestamp>();
/** Refusals seen so far; the final check only means something after the attempts. */
let refusals = 0;

async function startClient(kind: ClientKind): Promise<Map<DatabaseId, ClientFirestore>> {
  const app = initializeApp(
    { projectId: PROJECT_ID, apiKey: "fake-api-key", authDomain: `${PROJECT_ID}.firebaseapp.com` },
    `client-access-${kind.replace(/\W+/g, "-")}-${uniqueId("app")}`,
  );
  apps.push(app);
  if (kind === "signed-in user") {
    const auth = getAuth(app);
    connectAuthEmulator(auth, `http://${authEmulatorHost}`, { disableWarnings: true });
    await createUserWithEmailAndPassword(auth, `${uniqueId("attacker")}@example.com`, "attacker-password");
  }
  const databases = new Map<DatabaseId, ClientFirestore>();
  for (const { id } of DATABASES) {
    const db = id ? getClientFirestore(app, id) : getClientFirestore(app);
    connectFirestoreEmulator(
      db,
      hostname,
      port,
      kind === "mock user token" ? { mockUserToken: { user_id: "attacker" } } : {},
    );
    databases.set(id, db);
  }
  return databases;
}

beforeAll(async () => {
  for (const { id } of DATABASES) {
    const ref = firestore(id).collection(name).doc("seeded");
    const result = await ref.set(SEEDED);
    seededUpdateTimes.set(id, result.writeTime);
  }
  for (const client of CLIENTS) {
    if (client.available) clients.set(client.kind, await startClient(client.kind));
  }
});

afterAll(async () => {
  for (const databases of clients.values()) {
    for (const db of databases.values()) await terminate(db);
  }
  for (const app of apps) await deleteApp(app);
  await closeFirestore();
});

describe.each(CLIENTS)("as $label", ({ kind, available }) => {
  const cases = DATABASES.flatMap((database) =>
    OPERATIONS.map(([operation, run]) => ({ database, operation, run })),
  );
  (available ? test : test.skip).each(cases)(
    "when it calls $operation on $database.label, then it is refused with permission-denied",
    async ({ database, run }) => {
      const db = clients.get(kind)?.get(database.id);
      if (!db) throw new Error(`No ${kind} client`);
      expect(await refusalCode(run(db))).toBe("permission-denied");
      refusals += 1;
    },
  );
});

test("when every client attempt is over, then firebase-admin reads the seeded documents unchanged and finds no new document", async () => {
  expect(refusals).toBeGreaterThan(0);
  for (const { id } of DATABASES) {
    const snapshot = await firestore(id).collection(name).get();
    expect(snapshot.docs.map((d) => d.id)).toEqual(["seeded"]);
    expect(snapshot.docs[0]?.data()).toEqual(SEEDED);
    expect(snapshot.docs[0]?.updateTime.isEqual(seededUpdateTimes.get(id)!)).toBe(true);
  }
});
