/**
 * The check of one drawn item of a drill (see worker.ts): restored into the sandbox, read back through
 * Google's API and compared with the backup; its outcome written, then counted in the run.
 */
import type { Readable } from "node:stream";
import {
  DRILL_ITEM_REASONS,
  type DrillItem,
  type DrillOutcome,
  type DrillService,
} from "@alpvault/contracts/drills";
import { itemsByKey } from "../backups/service";
import { RESUMABLE_UPLOAD_BYTES } from "../engine/drive/restorer";
import { createContentDigester } from "../engine/format/content-digest";
import { messageIdOf } from "../engine/gmail/restorer";
import { classifyGoogleError, GoogleCallError } from "../engine/google/errors";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import { googleStatus } from "../engine/sources/google-errors";
import { readItem, updateItem, type StoredDrillItem } from "./repo";
import { itemName } from "./sample";
import type { DrillSandbox } from "./sandbox";

/** Mismatched or failed items the run itself names (its page lists every item). */
const MAX_LISTED_PROBLEMS = 50;

type Result = { outcome: DrillOutcome; reason: string | null };

/** Why an item's restore failed when the error concerns that item only; anything else stops the drill. */
function itemFailureReason(error: unknown): string | undefined {
  if (isIntegrityError(error)) return DRILL_ITEM_REASONS.integrity;
  if (!(error instanceof GoogleCallError) && googleStatus(error) === undefined) return undefined;
  const google = classifyGoogleError(error);
  if (google.kind !== "item") return undefined;
  return DRILL_ITEM_REASONS.googleRefused(google.googleReason ?? String(google.status));
}

/** The first offset where two buffers differ (the shorter one's length when one is a prefix). */
function firstDifference(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}

/** The backed-up bytes of a message and its Message-ID. */
async function messageOf(sandbox: DrillSandbox, item: CatalogItem) {
  const objects = {
    organizationId: sandbox.scope.organizationId,
    keys: await sandbox.keys(item.current.dataKeyId),
  };
  const raw = await versionContent(sandbox.blobStore, objects, item.current);
  return { raw, messageId: messageIdOf(raw) };
}

/**
 * Gmail keeps one copy of a Message-ID per mailbox, so a message the sandbox already holds (a message
 * sent to everyone, or one of the sandbox's own) cannot be restored there: an import would answer with
 * the sandbox's copy. The first of its spares the sandbox does not hold stands in for it (the item is
 * rewritten to name it before anything is restored); none left, it is skipped.
 */
async function restorableMessage(
  sandbox: DrillSandbox,
  stored: StoredDrillItem,
  first: { raw: Buffer; messageId: string | undefined },
) {
  const { scope, restorer } = sandbox;
  if (!first.messageId || !(await restorer.find(first.messageId))) return { stored, raw: first.raw };
  const spareItems = await itemsByKey(
    scope,
    stored.resourceId,
    (stored.spares ?? []).map((spare) => spare.itemKey),
  );
  for (const [index, spare] of spareItems.entries()) {
    if (!spare) continue;
    const candidate = await messageOf(sandbox, spare);
    if (candidate.messageId && (await restorer.find(candidate.messageId))) continue;
    const change = {
      itemKey: spare.itemKey,
      name: itemName(spare),
      standsInFor: stored.itemKey,
      spares: (stored.spares ?? []).slice(index + 1),
    };
    await updateItem(scope, sandbox.run.drillRunId, stored.seq, change);
    return { stored: { ...stored, ...change }, raw: candidate.raw };
  }
  return undefined;
}

/** A message: imported under the run's label, read back raw, compared byte for byte. */
async function checkMessage(
  sandbox: DrillSandbox,
  drawn: StoredDrillItem,
  item: CatalogItem,
): Promise<Result> {
  const { scope, run, restorer, gmail } = sandbox;
  const first = await messageOf(sandbox, item);
  let raw = first.raw;
  let restoredId = drawn.restoring && first.messageId ? await restorer.find(first.messageId) : undefined;
  if (!restoredId) {
    const restorable = await restorableMessage(sandbox, drawn, first);
    if (!restorable) return { outcome: "skipped", reason: DRILL_ITEM_REASONS.alreadyInSandbox };
    const { stored } = restorable;
    raw = restorable.raw;
    sandbox.labelId ??= restorer.labelId(run.restoreName);
    const labels = [await sandbox.labelId];
    await updateItem(scope, run.drillRunId, stored.seq, { restoring: true });
    restoredId = await restorer.import(raw, labels);
    await updateItem(scope, run.drillRunId, stored.seq, { restoredId });
  }
  const id = restoredId;
  const { data } = await sandbox.gmailCall("gmail.users.messages.get", true, () =>
    gmail.users.messages.get({ userId: "me", id, format: "raw" }),
  );
  if (typeof data.raw !== "string") return { outcome: "failed", reason: DRILL_ITEM_REASONS.notReadBack };
  const back = Buffer.from(data.raw, "base64url");
  if (back.length !== raw.length) {
    return { outcome: "mismatched", reason: DRILL_ITEM_REASONS.sizeDiffers(back.length, raw.length) };
  }
  if (!back.equals(raw)) {
    return { outcome: "mismatched", reason: DRILL_ITEM_REASONS.bytesDiffer(firstDifference(back, raw)) };
  }
  return { outcome: "matched", reason: null };
}

/** A file: uploaded into the run's folder, downloaded, its size and digest compared with the version's. */
async function checkFile(sandbox: DrillSandbox, stored: StoredDrillItem, item: CatalogItem): Promise<Result> {
  const { scope, run, driveRestorer, drive, blobStore } = sandbox;
  const derived = await sandbox.keys(item.current.dataKeyId);
  const objects = { organizationId: scope.organizationId, keys: derived };
  sandbox.folderId ??= driveRestorer.folderFor(run.restoreName, undefined);
  const folder = await sandbox.folderId;
  // Numbered, so that two files of one name stay apart (and a resumed drill finds its own).
  const metadata = {
    ...item.current.metadata,
    name: `${stored.seq} ${item.current.metadata.name ?? "file"}`,
  };
  let restoredId = stored.restoring ? await driveRestorer.find(metadata.name, folder) : undefined;
  if (!restoredId) {
    await updateItem(scope, run.drillRunId, stored.seq, { restoring: true });
    restoredId =
      item.current.size > RESUMABLE_UPLOAD_BYTES
        ? await driveRestorer.uploadResumable(
            metadata,
            versionChunks(blobStore, objects, item.current),
            item.current.size,
            { parent: folder },
          )
        : await driveRestorer.create(
            metadata,
            await versionContent(blobStore, objects, item.current),
            folder,
          );
    await updateItem(scope, run.drillRunId, stored.seq, { restoredId });
  }
  const fileId = restoredId;
  const { size, digest } = await sandbox.driveCall("drive.files.get", true, async () => {
    const response = await drive.files.get({ fileId, alt: "media" }, { responseType: "stream" });
    const digester = createContentDigester(derived);
    let bytes = 0;
    for await (const piece of response.data as unknown as Readable) {
      const buffer = piece as Buffer;
      bytes += buffer.length;
      digester.update(buffer);
    }
    return { size: bytes, digest: digester.digest() };
  });
  if (size !== item.current.size) {
    return { outcome: "mismatched", reason: DRILL_ITEM_REASONS.sizeDiffers(size, item.current.size) };
  }
  if (digest !== item.current.contentDigest) {
    return { outcome: "mismatched", reason: DRILL_ITEM_REASONS.digestDiffers };
  }
  return { outcome: "matched", reason: null };
}

/** How a drill checks an item of each service in the sandbox. */
const CHECKS: Readonly<
  Record<DrillService, (sandbox: DrillSandbox, stored: StoredDrillItem, item: CatalogItem) => Promise<Result>>
> = { gmail: checkMessage, drive: checkFile };

/** Checks one drawn item (or takes the outcome it already has) and counts it. */
export async function settleItem(sandbox: DrillSandbox, seq: number): Promise<void> {
  const { scope, run } = sandbox;
  const stored = await readItem(scope, run.drillRunId, seq);
  if (!stored) return;
  let result: Result;
  if (stored.outcome) {
    result = { outcome: stored.outcome, reason: stored.reason };
  } else {
    const [item] = await itemsByKey(scope, stored.resourceId, [stored.itemKey]);
    try {
      if (!item) result = { outcome: "skipped", reason: "No longer in the backups" };
      else result = await CHECKS[stored.service](sandbox, stored, item);
    } catch (error) {
      const reason = itemFailureReason(error);
      if (reason === undefined) throw error;
      result = { outcome: "failed", reason };
    }
    await updateItem(scope, run.drillRunId, seq, { outcome: result.outcome, reason: result.reason });
  }
  run.counts[result.outcome] += 1;
  const byResource = run.resources.find((entry) => entry.resourceId === stored.resourceId);
  if (byResource) byResource[result.outcome] += 1;
  if (
    (result.outcome === "mismatched" || result.outcome === "failed") &&
    run.problems.length < MAX_LISTED_PROBLEMS
  ) {
    // Read again: a message the sandbox held may have had a spare stand in for it.
    const named = (await readItem(scope, run.drillRunId, seq)) ?? stored;
    const problem: DrillItem = {
      itemKey: named.itemKey,
      resourceId: stored.resourceId,
      resourceName: stored.resourceName,
      service: stored.service,
      name: named.name,
      outcome: result.outcome,
      reason: result.reason,
    };
    run.problems.push(problem);
  }
}
