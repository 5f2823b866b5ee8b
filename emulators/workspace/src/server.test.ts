import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newServiceAccountKeyPair } from "./auth";
import { startWorkspaceEmulator, stateFile } from "./server";

/** The tests whose subject is not the key share one short key pair (a 2048-bit one takes 0.1–0.5 s). */
const keyPair = newServiceAccountKeyPair(1024);

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "workspace-emulator-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe("Workspace emulator server", () => {
  test("when state is saved on stop, then the next start restores it instead of generating", async () => {
    const first = await startWorkspaceEmulator({ port: 0, dataDir, profile: "empty", keyPair });
    first.emulator.directory.addCustomer({ domain: "kept.test", installed: true, scopes: [] });
    first.emulator.directory.addUser({ email: "someone@kept.test", givenName: "Some", familyName: "One" });
    await first.stop({ save: true });
    expect(existsSync(stateFile(dataDir))).toBe(true);

    const second = await startWorkspaceEmulator({ port: 0, dataDir, profile: "demo", keyPair });
    expect(second.emulator.directory.user("someone@kept.test")?.givenName).toBe("Some");
    expect(second.emulator.directory.customer("alpvault-demo.test")).toBeUndefined();
    await second.stop();
  });

  test("when stopped without save, then nothing is written", async () => {
    const running = await startWorkspaceEmulator({ port: 0, dataDir, profile: "empty", keyPair });
    await running.stop();
    expect(existsSync(stateFile(dataDir))).toBe(false);
  });

  test("when a key file is asked for, then a fresh service-account key is written there, readable by its owner only", async () => {
    const keyFile = join(dataDir, "keys", "service-account.json");
    const first = await startWorkspaceEmulator({ port: 0, profile: "empty", keyFile });
    const firstKey = JSON.parse(readFileSync(keyFile, "utf8")) as {
      private_key_id: string;
      token_uri: string;
    };
    expect(firstKey.token_uri).toBe(`${first.url}/token`);
    expect(statSync(keyFile).mode & 0o077).toBe(0);
    await first.stop();
    const second = await startWorkspaceEmulator({ port: 0, profile: "empty", keyFile });
    expect((JSON.parse(readFileSync(keyFile, "utf8")) as { private_key_id: string }).private_key_id).not.toBe(
      firstKey.private_key_id,
    );
    await second.stop();
  });

  test("when the port is taken, then starting fails with EADDRINUSE instead of hanging", async () => {
    const first = await startWorkspaceEmulator({ port: 0, profile: "empty", keyPair });
    const port = Number(new URL(first.url).port);
    await expect(startWorkspaceEmulator({ port, profile: "empty", keyPair })).rejects.toMatchObject({
      code: "EADDRINUSE",
    });
    await first.stop();
  });

  test("when an unknown path is called, then it is Google's 404 JSON error", async () => {
    const running = await startWorkspaceEmulator({ port: 0, profile: "empty", keyPair });
    const response = await fetch(`${running.url}/nothing/here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    await running.stop();
  });
});
