import { getAuth } from "firebase-admin/auth";
import { getFirestore } from "firebase-admin/firestore";
import { SCOPES } from "../../emulators/workspace/src/index";
import { DEMO_DOMAIN, gmailFor, workspaceAdmin } from "../support/workspace";
import {
  adminAppForRestart,
  restartDocument,
  restartIdentity,
  restartMailbox,
  restartMessage,
  restartMarker,
} from "./restart-state";

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

test("when the stack was stopped and started again, then the Workspace emulator's user and message are back", async () => {
  await workspaceAdmin("POST", `/customers/${DEMO_DOMAIN}/app:install`, {});
  try {
    const gmail = gmailFor(restartMailbox(marker), [SCOPES.gmailReadonly]);
    const { data } = await gmail.users.messages.list({
      userId: "me",
      q: `rfc822msgid:restart-${marker}@tests.alpvault-demo.test`,
    });
    expect(data.messages).toHaveLength(1);
    const raw = await gmail.users.messages.get({
      userId: "me",
      id: data.messages?.[0]?.id ?? "",
      format: "raw",
    });
    expect(Buffer.from(raw.data.raw ?? "", "base64url").toString("utf8")).toBe(restartMessage(marker));
  } finally {
    await workspaceAdmin("POST", `/customers/${DEMO_DOMAIN}/app:uninstall`);
  }
});
