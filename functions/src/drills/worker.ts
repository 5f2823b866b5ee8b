/**
 * The restore-drill worker: one `runDrill` task delivery runs (a stretch of) one drill. It takes the run's
 * lease, fixes the resources to drill (the protected ones) and, resource by resource, draws a random
 * sample of up to `sampleSize` mail messages and up to `sampleSize` Drive files (reservoir sampling over the
 * resource's catalog, one read per item), restores each into the sandbox mailbox (mail under the run's
 * label, files into the run's folder at the top of the sandbox's My Drive), reads it back through Google's
 * API (Gmail `messages.get` raw; Drive `alt=media`) and compares: mail byte for byte with the backed-up
 * message, files by size and content digest (docs/backup-format.md §4) of the download against the
 * version's. A drawn message the sandbox already holds (Gmail keeps one copy of a Message-ID per mailbox)
 * is replaced by one of the spares drawn with it; the sandbox's own mail is not drawn. Each item ends matched, mismatched (why), failed (why) or
 * skipped (why). Google files are not drawn (their restore converts an office export back into a Google
 * file, whose later export is not the same bytes), nor shortcuts, files kept without content, or files
 * above `DRILL_MAX_FILE_BYTES`.
 *
 * Each item's outcome is written before the run's counts; an item marked `restoring` is looked up in the
 * sandbox before it is restored again, so a resumed drill restores nothing twice. Near its deadline the
 * worker saves its position and re-enqueues itself. At the end it moves what it restored to the trash
 * (messages, then the label is deleted; the folder), records the run, audits it and raises an alert when an
 * item did not match or failed.
 */
import { randomInt, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { drive_v3 } from "@googleapis/drive";
import type { gmail_v1 } from "@googleapis/gmail";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import {
  DRILL_ITEM_REASONS,
  DRILL_MAX_FILE_BYTES,
  type DrillItem,
  type DrillOutcome,
  type DrillService,
} from "@alpvault/contracts/drills";
import type { RegionId } from "@alpvault/contracts/regions";
import { appendAudit } from "../audit/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { dataKeyResolver, type KeyWrappers } from "../backups/data-keys";
import { createContentDigester } from "../engine/format/content-digest";
import type { GoogleCaller } from "../engine/google/caller";
import { classifyGoogleError, GoogleCallError } from "../engine/google/errors";
import type { EnqueueDrill, DrillTask } from "../backups/queue";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem, ItemKind } from "../engine/runner/catalog";
import { itemsAfter, itemsByKey, readBackupResource } from "../backups/service";
import { DriveRestorer, RESUMABLE_UPLOAD_BYTES, type UploadAccess } from "../engine/drive/restorer";
import { GmailRestorer, messageIdOf } from "../engine/gmail/restorer";
import { googleStatus } from "../engine/sources/google-errors";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn } from "../organizations/service";
import { protectedResources } from "../resources/service";
import {
  finishRun,
  raiseDrillAlert,
  readItem,
  saveRunProgress,
  takeRunLease,
  updateItem,
  writeItems,
  type StoredDrillItem,
} from "./repo";

export interface DrillDeps {
  caller: GoogleCaller;
  gmail(user: string): gmail_v1.Gmail;
  drive(user: string): drive_v3.Drive;
  upload(user: string): UploadAccess;
  blobStore(regionId: RegionId): BlobStore;
  wrappers: KeyWrappers;
  enqueue: EnqueueDrill;
  budgetMs: number;
  servingRegion?: RegionId;
  now?: () => number;
  /** A random whole number from 0 to `below - 1` (sampling); crypto's by default. */
  random?: (below: number) => number;
}

/** Items read per catalog page while drawing. */
const SAMPLING_PAGE = 300;
/**
 * Messages drawn beside each sampled one to stand in for it when the sandbox already holds its Message-ID
 * (see restorableMessage).
 */
const SPARES_PER_MESSAGE = 2;
/** Mismatched or failed items the run itself names (its page lists every item). */
const MAX_LISTED_PROBLEMS = 50;

/** Why an item's restore failed when the error concerns that item only; anything else stops the drill. */
function itemFailureReason(error: unknown): string | undefined {
  if (isIntegrityError(error)) return DRILL_ITEM_REASONS.integrity;
  if (!(error instanceof GoogleCallError) && googleStatus(error) === undefined) return undefined;
  const google = classifyGoogleError(error);
  if (google.kind !== "item") return undefined;
  return DRILL_ITEM_REASONS.googleRefused(google.googleReason ?? String(google.status));
}

function itemName(item: CatalogItem): string {
  const display = item.search.display as { subject?: string; name?: string } | undefined;
  return display?.subject ?? display?.name ?? item.current.metadata.name ?? item.itemKey;
}

/** Whether a backed-up file can be proven byte for byte by a restore (see the header). */
function drawable(item: CatalogItem): boolean {
  if (item.kind !== "drive-file") return true;
  const metadata = item.current.metadata;
  return (
    !metadata.native &&
    !metadata.shortcut &&
    !metadata.contentSkipped &&
    !metadata.mimeType?.startsWith("application/vnd.google-apps.") &&
    item.current.size <= DRILL_MAX_FILE_BYTES
  );
}

/** Reservoir sampling (Algorithm R) of up to `size` drawable items of a kind, in one walk of the catalog. */
async function drawSample(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  size: number,
  random: (below: number) => number,
): Promise<CatalogItem[]> {
  const reservoir: CatalogItem[] = [];
  let seen = 0;
  let after: string | null = null;
  for (;;) {
    const page = await itemsAfter(scope, resourceId, kind, after, SAMPLING_PAGE);
    for (const item of page) {
      if (!drawable(item)) continue;
      seen += 1;
      if (reservoir.length < size) reservoir.push(item);
      else {
        const slot = random(seen);
        if (slot < size) reservoir[slot] = item;
      }
    }
    if (page.length < SAMPLING_PAGE) return reservoir;
    after = page[page.length - 1]!.itemKey;
  }
}

/** The items in a random order (Fisher–Yates): a reservoir that took the whole catalog is in key order. */
function shuffled<T>(items: T[], random: (below: number) => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/** The first offset where two buffers differ (the shorter one's length when one is a prefix). */
function firstDifference(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}

type Result = { outcome: DrillOutcome; reason: string | null };

export async function executeDrill(
  task: DrillTask,
  deps: DrillDeps,
): Promise<"dropped" | "continued" | "passed" | "failed"> {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? ((below: number) => randomInt(below));
  const organization = await organizationServedIn(task.organizationId, deps.servingRegion);
  if (!organization) return "dropped";
  const scope: Scope = { organizationId: organization.organizationId, regionId: organization.regionId };
  const holder = randomUUID();
  const deadline = now() + deps.budgetMs;
  const run = await takeRunLease(
    scope,
    task.drillRunId,
    holder,
    new Date(deadline + 120_000).toISOString(),
    new Date(now()).toISOString(),
  );
  if (!run) return "dropped";
  const actor = run.requestedBy || SYSTEM_ACTOR;
  const audit = (operation: "drill.started" | "drill.finished" | "drill.failed", reason?: string) =>
    appendAudit(scope, {
      operation,
      actor,
      object: `Sandbox ${run.sandboxEmail}: ${run.counts.matched} of ${run.counts.sample} items matched`,
      failureReason: reason ?? null,
      date: new Date(now()),
      key: `${operation}-${run.drillRunId}`,
    });
  // Keyed by run: the first delivery records it, later ones find it there.
  await appendAudit(scope, {
    operation: "drill.started",
    actor,
    object: `Sandbox ${run.sandboxEmail}`,
    date: new Date(run.startedAt ?? now()),
    key: `drill.started-${run.drillRunId}`,
  });

  const sandbox = await readBackupResource(scope, run.sandboxResourceId);
  const email = sandbox?.type === "email" && sandbox.status === "active" ? sandbox.email : null;
  const gmail = deps.gmail(email ?? "");
  const drive = deps.drive(email ?? "");
  const restorer = new GmailRestorer(gmail, email ?? "", deps.caller);
  const driveRestorer = new DriveRestorer(
    drive,
    { kind: "user", email: email ?? "" },
    deps.caller,
    deps.upload(email ?? ""),
  );
  const gmailCall = <T>(method: string, idempotent: boolean, send: () => Promise<T>) =>
    deps.caller.call({ api: "gmail", user: email ?? "", method, idempotent }, send);
  const driveCall = <T>(method: string, idempotent: boolean, send: () => Promise<T>) =>
    deps.caller.call({ api: "drive", user: email ?? "", method, idempotent }, send);

  /** Moves what the drill restored to the trash: its messages (the label is deleted after), its folder. */
  const cleanUp = async (): Promise<void> => {
    const { data: labels } = await gmailCall("gmail.users.labels.list", true, () =>
      gmail.users.labels.list({ userId: "me" }),
    );
    const label = (labels.labels ?? []).find((entry) => entry.name === run.restoreName);
    if (label?.id) {
      const labelId = label.id;
      let pageToken: string | undefined;
      do {
        const { data: page } = await gmailCall("gmail.users.messages.list", true, () =>
          gmail.users.messages.list({ userId: "me", labelIds: [labelId], maxResults: 100, pageToken }),
        );
        for (const message of page.messages ?? []) {
          if (!message.id) continue;
          const id = message.id;
          await gmailCall("gmail.users.messages.trash", true, () =>
            gmail.users.messages.trash({ userId: "me", id }),
          );
        }
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      await gmailCall("gmail.users.labels.delete", true, () =>
        gmail.users.labels.delete({ userId: "me", id: labelId }),
      );
    }
    const folder = await driveRestorer.find(run.restoreName, "root", true);
    if (folder) {
      await driveCall("drive.files.update", true, () =>
        drive.files.update({ fileId: folder, requestBody: { trashed: true }, fields: "id" }),
      );
    }
  };

  const end = async (outcome: { state: "passed" } | { state: "failed"; failureReason: string }) => {
    if (email && !run.position.cleaned) {
      try {
        await cleanUp();
        run.position.cleaned = true;
      } catch (error) {
        logs.drillCleanupFailed({ organizationId: scope.organizationId, drillRunId: run.drillRunId, error });
      }
    }
    await finishRun(scope, run, outcome, new Date(now()));
    await audit(
      outcome.state === "passed" ? "drill.finished" : "drill.failed",
      outcome.state === "failed" ? outcome.failureReason : undefined,
    );
    if (outcome.state === "failed") {
      await raiseDrillAlert(scope, run.drillRunId, {
        createdAt: new Date(now()).toISOString(),
        message: `Restore drill failed: ${outcome.failureReason}`,
      });
    }
    logs.drillEnded({
      organizationId: scope.organizationId,
      drillRunId: run.drillRunId,
      state: outcome.state,
      ...run.counts,
    });
    return outcome.state;
  };

  if (!email) return end({ state: "failed", failureReason: "The sandbox mailbox is no longer available" });

  const keys = dataKeyResolver(scope, deps.wrappers);
  const blobStore = deps.blobStore(scope.regionId);
  let labelId: Promise<string> | undefined;
  let folderId: Promise<string> | undefined;

  /** The backed-up bytes of a message and its Message-ID. */
  const messageOf = async (item: CatalogItem) => {
    const objects = { organizationId: scope.organizationId, keys: await keys(item.current.dataKeyId) };
    const raw = await versionContent(blobStore, objects, item.current);
    return { raw, messageId: messageIdOf(raw) };
  };

  /**
   * Gmail keeps one copy of a Message-ID per mailbox, so a message the sandbox already holds (a message
   * sent to everyone, or one of the sandbox's own) cannot be restored there: an import would answer with
   * the sandbox's copy. The first of its spares the sandbox does not hold stands in for it (the item is
   * rewritten to name it before anything is restored); none left, it is skipped.
   */
  const restorableMessage = async (
    stored: StoredDrillItem,
    first: { raw: Buffer; messageId: string | undefined },
  ) => {
    if (!first.messageId || !(await restorer.find(first.messageId))) return { stored, raw: first.raw };
    const spareItems = await itemsByKey(
      scope,
      stored.resourceId,
      (stored.spares ?? []).map((spare) => spare.itemKey),
    );
    for (const [index, spare] of spareItems.entries()) {
      if (!spare) continue;
      const candidate = await messageOf(spare);
      if (candidate.messageId && (await restorer.find(candidate.messageId))) continue;
      const change = {
        itemKey: spare.itemKey,
        name: itemName(spare),
        standsInFor: stored.itemKey,
        spares: (stored.spares ?? []).slice(index + 1),
      };
      await updateItem(scope, run.drillRunId, stored.seq, change);
      return { stored: { ...stored, ...change }, raw: candidate.raw };
    }
    return undefined;
  };

  /** A message: imported under the run's label, read back raw, compared byte for byte. */
  const checkMessage = async (drawn: StoredDrillItem, item: CatalogItem): Promise<Result> => {
    const first = await messageOf(item);
    let raw = first.raw;
    let restoredId = drawn.restoring && first.messageId ? await restorer.find(first.messageId) : undefined;
    if (!restoredId) {
      const restorable = await restorableMessage(drawn, first);
      if (!restorable) return { outcome: "skipped", reason: DRILL_ITEM_REASONS.alreadyInSandbox };
      const { stored } = restorable;
      raw = restorable.raw;
      labelId ??= restorer.labelId(run.restoreName);
      const labels = [await labelId];
      await updateItem(scope, run.drillRunId, stored.seq, { restoring: true });
      restoredId = await restorer.import(raw, labels);
      await updateItem(scope, run.drillRunId, stored.seq, { restoredId });
    }
    const id = restoredId;
    const { data } = await gmailCall("gmail.users.messages.get", true, () =>
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
  };

  /** A file: uploaded into the run's folder, downloaded, its size and digest compared with the version's. */
  const checkFile = async (stored: StoredDrillItem, item: CatalogItem): Promise<Result> => {
    const derived = await keys(item.current.dataKeyId);
    const objects = { organizationId: scope.organizationId, keys: derived };
    folderId ??= driveRestorer.folderFor(run.restoreName, undefined);
    const folder = await folderId;
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
    const { size, digest } = await driveCall("drive.files.get", true, async () => {
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
  };

  /** Checks one drawn item (or takes the outcome it already has) and counts it. */
  const settle = async (seq: number): Promise<void> => {
    const stored = await readItem(scope, run.drillRunId, seq);
    if (!stored) return;
    let result: Result;
    if (stored.outcome) {
      result = { outcome: stored.outcome, reason: stored.reason };
    } else {
      const [item] = await itemsByKey(scope, stored.resourceId, [stored.itemKey]);
      try {
        if (!item) result = { outcome: "skipped", reason: "No longer in the backups" };
        else if (stored.service === "gmail") result = await checkMessage(stored, item);
        else result = await checkFile(stored, item);
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
  };

  /** Draws the sample of the resource in hand and writes its items. */
  const sample = async (resource: { resourceId: string; name: string }): Promise<void> => {
    const drawn: StoredDrillItem[] = [];
    let seq = run.position.itemsTo;
    for (const [kind, service] of [
      ["gmail-message", "gmail"],
      ["drive-file", "drive"],
    ] as [ItemKind, DrillService][]) {
      // The sandbox's own messages are in it already: none of them could be restored there.
      if (service === "gmail" && resource.resourceId === run.sandboxResourceId) continue;
      const spares = service === "gmail" ? SPARES_PER_MESSAGE : 0;
      const pool = shuffled(
        await drawSample(scope, resource.resourceId, kind, run.sampleSize * (1 + spares), random),
        random,
      );
      const chosen = pool.slice(0, run.sampleSize);
      const rest = pool.slice(chosen.length);
      for (const [index, item] of chosen.entries()) {
        drawn.push({
          seq: seq++,
          itemKey: item.itemKey,
          resourceId: resource.resourceId,
          resourceName: resource.name,
          service,
          name: itemName(item),
          outcome: null,
          reason: null,
          ...(spares > 0
            ? {
                spares: rest
                  .filter((_, spare) => spare % chosen.length === index)
                  .map((spare) => ({ itemKey: spare.itemKey, name: itemName(spare) })),
              }
            : {}),
        });
      }
    }
    await writeItems(scope, run.drillRunId, drawn);
    run.position = { ...run.position, sampled: true, itemsFrom: run.position.itemsTo, itemsTo: seq };
    run.position.itemIndex = run.position.itemsFrom;
    if (drawn.length > 0) {
      run.resources.push({
        resourceId: resource.resourceId,
        name: resource.name,
        sample: drawn.length,
        matched: 0,
        mismatched: 0,
        failed: 0,
        skipped: 0,
      });
    }
    run.counts.sample += drawn.length;
  };

  const pause = async (): Promise<"continued" | "dropped"> => {
    if (!(await saveRunProgress(scope, run, holder, true))) return "dropped";
    await deps.enqueue(scope.regionId, { organizationId: scope.organizationId, drillRunId: run.drillRunId });
    return "continued";
  };

  try {
    if (!run.resourceIds) {
      const resources = await protectedResources(scope);
      run.resourceIds = resources.map((resource) => resource.resourceId);
      if (!(await saveRunProgress(scope, run, holder))) return "dropped";
    }
    const names = new Map((await protectedResources(scope)).map((entry) => [entry.resourceId, entry.name]));
    while (run.position.resourceIndex < run.resourceIds.length) {
      const resourceId = run.resourceIds[run.position.resourceIndex]!;
      if (!run.position.sampled) {
        if (now() >= deadline) return await pause();
        await sample({ resourceId, name: names.get(resourceId) ?? resourceId });
        if (!(await saveRunProgress(scope, run, holder))) return "dropped";
      }
      while (run.position.itemIndex < run.position.itemsTo) {
        if (now() >= deadline) return await pause();
        await settle(run.position.itemIndex);
        run.position.itemIndex += 1;
        if (!(await saveRunProgress(scope, run, holder))) return "dropped";
      }
      run.position = { ...run.position, resourceIndex: run.position.resourceIndex + 1, sampled: false };
      if (!(await saveRunProgress(scope, run, holder))) return "dropped";
    }
  } catch (error) {
    logs.drillFailed({ organizationId: scope.organizationId, drillRunId: run.drillRunId, error });
    return end({ state: "failed", failureReason: "The restore drill stopped on an unexpected error" });
  }
  const { sample: total, mismatched, failed } = run.counts;
  if (mismatched + failed > 0) {
    const parts = [
      ...(mismatched > 0 ? [`${mismatched} of ${total} items did not match their backup`] : []),
      ...(failed > 0 ? [`${failed} of ${total} items could not be restored`] : []),
    ];
    return end({ state: "failed", failureReason: parts.join("; ") });
  }
  return end({ state: "passed" });
}
