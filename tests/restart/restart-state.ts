/**
 * State that must survive a stop and a start of the local stack (what Ctrl-C on `npm start` does). The test
 * runner runs before-restart.test.ts, stops the stack saving state, starts it again on the same data and
 * runs after-restart.test.ts; RESTART_MARKER ties the two runs together.
 */
import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { Timestamp } from "firebase-admin/firestore";
import { stackEnv } from "../support/stack-env";

export function restartMarker(): string {
  const marker = process.env.RESTART_MARKER;
  if (!marker) throw new Error("RESTART_MARKER is not set: run through 'npm test'");
  return marker;
}

export function restartIdentity(marker: string): { sub: string; email: string } {
  return { sub: `restart-${marker}`, email: `restart-${marker.slice(0, 8)}@tests.alpine-demo.example` };
}

/** A mailbox of the demo Workspace that only this run creates. */
export function restartMailbox(marker: string): string {
  return `restart-${marker.slice(0, 8)}@alpvault-demo.test`;
}

/** A message with non-ASCII text, so the saved state must keep bytes, not just ASCII. */
export function restartMessage(marker: string): string {
  return [
    `Message-ID: <restart-${marker}@tests.alpvault-demo.test>`,
    "From: Restart Check <checks@alpvault-demo.test>",
    `To: ${restartMailbox(marker)}`,
    "Subject: Kept across restarts",
    "Date: Sun, 22 Nov 2026 10:00:00 +0100",
    "Content-Type: text/plain; charset=UTF-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    "Grüezi, this message must survive a stop and a start.",
    "",
  ].join("\r\n");
}

/** One document with every Firestore value type the persistence format must keep. */
export const restartDocument = {
  integer: 42,
  double: 42.5,
  text: "kept across restarts",
  when: Timestamp.fromMillis(1_790_000_000_123),
  nested: { list: [1, "two", { three: true }], nothing: null },
  bytes: Buffer.from([0, 1, 2, 254, 255]),
};

export function adminAppForRestart(name: string): { app: () => App } {
  let app: App | undefined;
  beforeAll(() => {
    app = initializeApp({ projectId: stackEnv.projectId }, name);
  });
  afterAll(async () => {
    if (app) await deleteApp(app);
  });
  return {
    app: () => {
      if (!app) throw new Error("admin app not initialised");
      return app;
    },
  };
}
