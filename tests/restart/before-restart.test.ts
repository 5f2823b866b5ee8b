import { getAuth } from "firebase-admin/auth";
import { getFirestore } from "firebase-admin/firestore";
import { signInWithGoogle } from "../support/auth-emulator";
import { workspaceAdmin } from "../support/workspace";
import {
  adminAppForRestart,
  restartDocument,
  restartIdentity,
  restartMailbox,
  restartMessage,
  restartMarker,
} from "./restart-state";
import { afterBackgroundWork } from "../support/wait";

const marker = restartMarker();
const admin = adminAppForRestart("before-restart");

test("when a user signs in and data is written, then both are there", async () => {
  const identity = restartIdentity(marker);
  const user = await signInWithGoogle(identity);
  const ref = getFirestore(admin.app()).collection("restartChecks").doc(marker);
  await ref.set(restartDocument);
  expect((await getAuth(admin.app()).getUser(user.uid)).email).toBe(identity.email);
  expect((await ref.get()).data()).toEqual(restartDocument);
});

test("when the stack has run for a while, then the local scheduler has run the dispatcher", async () => {
  const ref = getFirestore(admin.app()).collection("system").doc("dispatcher");
  // It runs them once, at the start.
  const runs = await afterBackgroundWork(
    "The local scheduler's first dispatcher run",
    async () => (await ref.get()).get("runs") as unknown,
    (found) => typeof found === "number" && found >= 1,
    20_000,
  );
  expect(runs).toBeGreaterThanOrEqual(1);
});

test("when a Workspace user and a message are added to the emulator, then the emulator has them", async () => {
  const mailbox = restartMailbox(marker);
  expect(
    (await workspaceAdmin("POST", "/users", { email: mailbox, givenName: "Restart", familyName: "Check" }))
      .status,
  ).toBe(200);
  const added = await workspaceAdmin<{ id: string }>("POST", `/users/${mailbox}/gmail/messages`, {
    raw: restartMessage(marker),
    encoding: "plain",
  });
  expect(added.status).toBe(200);
  expect(added.body.id).toEqual(expect.any(String));
});
