/**
 * `npm run seed`: rebuilds emulator-data/ from nothing, so the seed is reproducible rather than hand-edited.
 * Starts the stack on an empty data folder, creates the demo Google user by signing it in through the Auth
 * emulator (as the web's demo sign-in does), stops saving state, and replaces emulator-data/ with it.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEMO_GOOGLE_USER } from "../contracts/src/local";
import { HOST, PORTS, ROOT } from "./ports";
import { PROJECT_ID, TEST_HUGE_FILE_BYTES, startStack } from "./stack";

async function signInDemoUser(): Promise<void> {
  const idToken = JSON.stringify({
    sub: DEMO_GOOGLE_USER.sub,
    email: DEMO_GOOGLE_USER.email,
    email_verified: true,
    name: DEMO_GOOGLE_USER.displayName,
  });
  const response = await fetch(
    `http://${HOST}:${PORTS.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        postBody: `id_token=${encodeURIComponent(idToken)}&providerId=google.com`,
        requestUri: "http://localhost",
        returnSecureToken: true,
      }),
    },
  );
  if (!response.ok) throw new Error(`Demo sign-in failed: ${response.status} ${await response.text()}`);
}

/** The seed holds the demo user and nothing else: anything more means another client used the stack. */
async function assertOnlyDemoUser(): Promise<void> {
  const response = await fetch(
    `http://${HOST}:${PORTS.auth}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:batchGet?maxResults=100`,
    { headers: { authorization: "Bearer owner" } },
  );
  const { users = [] } = (await response.json()) as { users?: { email?: string }[] };
  const emails = users.map((user) => user.email);
  if (emails.length !== 1 || emails[0] !== DEMO_GOOGLE_USER.email) {
    throw new Error(
      `The seed stack has unexpected accounts (${emails.join(", ")}): was something else using it?`,
    );
  }
}

/** A record of the seed itself, so the Firestore part of the seed is exercised on every start. */
async function writeSeedRecord(firestoreHost: string): Promise<void> {
  process.env.FIRESTORE_EMULATOR_HOST = firestoreHost;
  const { initializeApp, deleteApp } = await import("firebase-admin/app");
  const { getFirestore } = await import("firebase-admin/firestore");
  const app = initializeApp({ projectId: PROJECT_ID }, "seed");
  await getFirestore(app)
    .collection("system")
    .doc("seed")
    .set({ formatVersion: 1, demoUser: DEMO_GOOGLE_USER.email });
  await deleteApp(app);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "alpvault-seed-"));
  const stack = await startStack({
    dataDir,
    build: true,
    scheduler: "off",
    googleLatency: false,
    hugeFileBytes: TEST_HUGE_FILE_BYTES,
  });
  try {
    await signInDemoUser();
    await writeSeedRecord(stack.env.FIRESTORE_EMULATOR_HOST ?? "");
    await assertOnlyDemoUser();
  } finally {
    await stack.stop({ save: true });
  }
  // The Workspace emulator regenerates its demo organisation from its seed when it has no saved state,
  // so the seed does not carry it (emulator-data/workspace/ holds only what a local run saves).
  rmSync(join(dataDir, "workspace"), { recursive: true, force: true });
  const target = resolve(ROOT, "emulator-data");
  rmSync(target, { recursive: true, force: true });
  cpSync(dataDir, target, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`Seeded ${target} with the demo user ${DEMO_GOOGLE_USER.email}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
