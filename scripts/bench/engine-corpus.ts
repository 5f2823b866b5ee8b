/**
 * Section "corpus": the `bench` organisation's mail and My Drives of a few users, backed up in full through
 * `runBackup` into one organisation's memory blob store. Stored bytes are the object bytes written (chunks
 * and manifests: AVC1 header, gzip, GCM tag; deduplicated within the organisation); source bytes are the
 * item bytes the engine read (raw RFC 822 messages, Drive blobs and office exports).
 *
 * For reference, each item is also compressed on its own with gzip -6 (what compression alone can reach
 * on this corpus, without deduplication). Quotas are on with a fast clock (time scale 600): this section
 * measures bytes, not time.
 */
import { gzipSync } from "node:zlib";

import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import type { Source } from "../../functions/src/engine/sources/source";
import type { MeasuredFigure } from "./types";
import { BackupStore } from "./engine-store";
import { BenchWorkspace } from "./engine-workspace";

const TIME_SCALE = 600;
const PLAN = { users: 5, messagesPerUser: 500, filesPerUser: 40, seed: 6_003 };

interface Totals {
  items: number;
  bytes: number;
  gzipped: number;
}

/** `source`, adding up the bytes of every item the engine reads and what gzip -6 makes of each alone. */
function measured(source: Source, totals: Totals): Source {
  return {
    kind: source.kind,
    listChanges: (cursor) => source.listChanges(cursor),
    async fetch(item) {
      const fetched = await source.fetch(item);
      const content = fetched.content;
      async function* counted(): AsyncGenerator<Buffer> {
        const parts: Buffer[] = [];
        for await (const part of content) {
          parts.push(part);
          yield part;
        }
        const whole = Buffer.concat(parts);
        totals.items += 1;
        totals.bytes += whole.length;
        totals.gzipped += gzipSync(whole, { level: 6 }).length;
      }
      return { ...fetched, content: counted() };
    },
  };
}

export async function measureCorpus(): Promise<MeasuredFigure[]> {
  const workspace = await BenchWorkspace.start(TIME_SCALE, PLAN);
  try {
    const shared = quotaAwareCaller({ minuteMs: workspace.minuteMs });
    const store = new BackupStore();
    const mail: Totals = { items: 0, bytes: 0, gzipped: 0 };
    const drive: Totals = { items: 0, bytes: 0, gzipped: 0 };
    let source = 0;
    let stored = 0;
    for (const user of workspace.users) {
      const resources: [string, (caller: GoogleCaller) => Source, Totals][] = [
        [`gmail:${user}`, (caller) => workspace.gmailSource(user, caller), mail],
        [`drive:${user}`, (caller) => workspace.driveSource(user, caller), drive],
      ];
      for (const [resourceId, sourceOf, totals] of resources) {
        const caller = meteredCaller(shared);
        const run = await store.backup(resourceId, measured(sourceOf(caller), totals), caller.usage);
        source += run.result.progress.bytes;
        stored += run.result.progress.storedBytes;
      }
    }
    if (stored !== store.blobStore.bytesWritten || source !== mail.bytes + drive.bytes) {
      throw new Error("the runs' progress and the bytes counted by the bench disagree");
    }
    const ratio = (totals: Totals) => `${(totals.gzipped / totals.bytes).toFixed(3)}`;
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    return [
      {
        id: "stored-to-source-bytes",
        value: store.blobStore.bytesWritten / source,
        note:
          `${workspace.users.length} active users of a generated bench organisation (seed ${PLAN.seed}): ` +
          `${mail.items} messages (${mb(mail.bytes)}) and ${drive.items} Drive files (${mb(drive.bytes)}); ` +
          `${mb(store.blobStore.bytesWritten)} in ${store.blobStore.objectsWritten} objects for ` +
          `${mb(source)} read. Reference, gzip -6 of each item alone: ` +
          `${((mail.gzipped + drive.gzipped) / source).toFixed(3)} (mail ${ratio(mail)}, Drive ${ratio(drive)})`,
      },
    ];
  } finally {
    await workspace.stop();
  }
}
