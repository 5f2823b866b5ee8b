/**
 * The restore of the engine bench's large-file section, in a process of its own, as a recovery task runs
 * apart from the backup that stored the file: its resident memory is the restore's, not what the backup
 * left behind. Forked by `engine-large-file.ts`, it receives a `RestoreOrder`, restores the version with the engine's `DriveRestorer` (a resumable upload
 * from `versionChunks`, objects read from the section's disk store) into a new folder of the user's My
 * Drive, and answers a `RestoreReport` (or `{error}`).
 */
import { createHash } from "node:crypto";

import { drive_v3 } from "@googleapis/drive";

import { emulatorJwt, type ServiceAccountKey } from "../../emulators/workspace/src/index";
import { dataKey, deriveKeys, type DataKey } from "../../functions/src/engine/format/keys";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { versionChunks } from "../../functions/src/engine/restore/content";
import type { CurrentVersion } from "../../functions/src/engine/runner/catalog";
import { DriveRestorer } from "../../functions/src/engine/drive/restorer";
import { DiskBlobStore, ORGANIZATION_ID, peakRss, type MemoryAtPeak } from "./engine-store";

const DRIVE_SCOPE = "https://www.googleapis.com/auth/drive";

export interface RestoreOrder {
  url: string;
  key: ServiceAccountKey;
  user: string;
  timeScale: number;
  /** The data key (its bytes in base64: a `DataKey` keeps them out of serialisation). */
  dataKey: { id: string; key: string };
  /** The disk store's folder. */
  objects: string;
  version: CurrentVersion;
}

export interface RestoreReport {
  restoredFileId: string;
  /** Drive's md5Checksum and size of the restored file. */
  md5Checksum: string;
  size: number;
  /** md5 and length of the bytes the restorer sent. */
  sentMd5: string;
  sentBytes: number;
  seconds: number;
  baselineBytes: number;
  peakBytes: number;
  atPeak: MemoryAtPeak;
  samples: number;
  longestGapMs: number;
}

const dataKeyOf = (order: RestoreOrder): DataKey =>
  dataKey(order.dataKey.id, Buffer.from(order.dataKey.key, "base64"));

async function restore(order: RestoreOrder): Promise<RestoreReport> {
  const { url, key, user, version } = order;
  const auth = emulatorJwt(url, key, { subject: user, scopes: [DRIVE_SCOPE] });
  const caller = meteredCaller(quotaAwareCaller({ minuteMs: 60_000 / order.timeScale }));
  const drive = new drive_v3.Drive(googleClientOptions({ auth, rootUrl: `${url}/` }));
  const accessToken = async () => (await auth.getAccessToken()).token ?? "";
  await accessToken();
  const blobStore = new DiskBlobStore(order.objects);
  const scope = { organizationId: ORGANIZATION_ID, keys: deriveKeys(dataKeyOf(order)) };
  const restorer = new DriveRestorer(drive, { kind: "user", email: user }, caller, {
    rootUrl: `${url}/`,
    accessToken,
  });

  const sentMd5 = createHash("md5");
  let sentBytes = 0;
  async function* sent(): AsyncGenerator<Buffer> {
    for await (const piece of versionChunks(blobStore, scope, version)) {
      sentMd5.update(piece);
      sentBytes += piece.length;
      yield piece;
    }
  }
  const started = performance.now();
  const memory = await peakRss(50, async () => {
    const parent = await restorer.folderFor("Restored by the bench", undefined);
    return restorer.uploadResumable(version.metadata, sent(), version.size, { parent });
  });
  const seconds = (performance.now() - started) / 1000;
  const { data } = await drive.files.get({ fileId: memory.value, fields: "size,md5Checksum" });
  return {
    restoredFileId: memory.value,
    md5Checksum: data.md5Checksum ?? "",
    size: Number(data.size),
    sentMd5: sentMd5.digest("hex"),
    sentBytes,
    seconds,
    baselineBytes: memory.baselineBytes,
    peakBytes: memory.peakBytes,
    atPeak: memory.atPeak,
    samples: memory.samples,
    longestGapMs: memory.longestGapMs,
  };
}

if (process.send) {
  process.once("message", (order: RestoreOrder) => {
    restore(order).then(
      (report) => process.send?.(report, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ error: error instanceof Error ? error.message : String(error) }, () =>
          process.exit(1),
        ),
    );
  });
}
