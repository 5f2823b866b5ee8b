/**
 * The Workspace emulator of the engine bench's large-file section, in a process of its own: the emulator
 * keeps a Drive file's content as one Buffer, which in the engine's process would be most of the memory
 * measured. Forked as `engine-large-file-emulator.ts <bytes> <time scale>`, it starts the emulator (quotas
 * on, 2026 model), adds a customer with the app installed, one user and one Drive file of `<bytes>` random
 * bytes, sends a `LargeFileEmulator` (or `{error}`) to its parent and serves until it is killed.
 */
import { randomFillSync } from "node:crypto";

import { DEFAULT_GRANTED_SCOPES, type ServiceAccountKey } from "../../emulators/workspace/src/auth";
import { startWorkspaceEmulator } from "../../emulators/workspace/src/server";

const DOMAIN = "large-file.bench.test";
const USER = `owner@${DOMAIN}`;
/** Random bytes are made this many at a time. */
const SLICE = 64 * 2 ** 20;

export interface LargeFileEmulator {
  url: string;
  key: ServiceAccountKey;
  user: string;
  fileId: string;
  bytes: number;
}

async function start(bytes: number, timeScale: number): Promise<LargeFileEmulator> {
  const { emulator, url } = await startWorkspaceEmulator({
    port: 0,
    profile: "empty",
    quota: { enabled: true, model: "2026", timeScale },
  });
  emulator.directory.addCustomer({ domain: DOMAIN, installed: true, scopes: DEFAULT_GRANTED_SCOPES });
  const { id: userId } = emulator.directory.addUser({ email: USER, givenName: "Large", familyName: "File" });
  // Random bytes do not compress: like video, photos and archives, the bulk of a large Drive.
  const content = Buffer.allocUnsafe(bytes);
  for (let offset = 0; offset < bytes; offset += SLICE) {
    randomFillSync(content, offset, Math.min(SLICE, bytes - offset));
  }
  const { id: fileId } = emulator.drive.createFile({
    userId,
    name: "large.bin",
    mimeType: "application/octet-stream",
    content,
  });
  return { url, key: emulator.oauth.serviceAccount, user: USER, fileId, bytes };
}

if (process.send) {
  start(Number(process.argv[2]), Number(process.argv[3])).then(
    (started) => process.send?.(started),
    (error: unknown) => process.send?.({ error: error instanceof Error ? error.message : String(error) }),
  );
}
