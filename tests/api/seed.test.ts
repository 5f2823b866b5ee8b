/** The local stack starts from emulator-data/: the seeded demo Google user and seed record are there. */
import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import { getFirestore } from "firebase-admin/firestore";
import { DEMO_GOOGLE_USER } from "@alpvault/contracts/local";
import { stackEnv } from "../support/stack-env";

let app: App;
beforeAll(() => {
  app = initializeApp({ projectId: stackEnv.projectId }, "seed-check");
});
afterAll(() => deleteApp(app));

test("when the stack starts from the seed, then the demo Google user exists with its Google identity", async () => {
  const user = await getAuth(app).getUserByEmail(DEMO_GOOGLE_USER.email);
  expect(user.displayName).toBe(DEMO_GOOGLE_USER.displayName);
  expect(user.providerData).toEqual([
    expect.objectContaining({
      providerId: "google.com",
      uid: DEMO_GOOGLE_USER.sub,
      email: DEMO_GOOGLE_USER.email,
    }),
  ]);
});

test("when the stack starts from the seed, then Firestore holds the seed record", async () => {
  const seed = await getFirestore(app).collection("system").doc("seed").get();
  expect(seed.data()).toEqual({ formatVersion: 1, demoUser: DEMO_GOOGLE_USER.email });
});
