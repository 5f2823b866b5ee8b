import { getAuth } from "firebase-admin/auth";
import { getFirestore } from "firebase-admin/firestore";
import { adminAppForRestart, restartDocument, restartIdentity, restartMarker } from "./restart-state";

const marker = restartMarker();
const admin = adminAppForRestart("after-restart");

test("when the stack was stopped and started again, then the Google user is still there", async () => {
  const user = await getAuth(admin.app()).getUserByEmail(restartIdentity(marker).email);
  expect(user.providerData.map((provider) => provider.providerId)).toContain("google.com");
});

test("when the stack was stopped and started again, then the Firestore document is back with its types", async () => {
  const snapshot = await getFirestore(admin.app()).collection("restartChecks").doc(marker).get();
  expect(snapshot.exists).toBe(true);
  expect(snapshot.data()).toEqual(restartDocument);
});
