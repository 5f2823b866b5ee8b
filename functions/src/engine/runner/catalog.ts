/**
 * What the backup runner needs from the catalog (docs/backup-format.md §6) and the run record (§5): exactly
 * these operations, each one Firestore transaction or batch in the Firestore implementation, so a crash
 * between two calls leaves a state the next attempt repairs by repeating the batch in hand.
 *
 * How each call maps to Firestore (`organizations/{organizationId}/…`):
 * - `getItems`: one `getAll` of `resources/{resourceId}/items/{itemKey}` (the item document carries a
 *   summary of its current version, `current`, so no second read is needed to skip or reuse).
 * - `knownChunks`: one `getAll` of `chunkRefs/{chunkId}`.
 * - `recordChunks`: one transaction on `chunkRefs/{chunkId}`: `getAll`, then `set` of each entry, keeping
 *   `firstRunId` of existing ones (the runner never passes more than `MAX_CHUNK_REFS_PER_CALL`).
 * - `writeVersions`: one transaction: `getAll` of the items and version documents, then `getAll` of the
 *   versions the items named current until now, then `create` of each version document not there yet
 *   (idempotent by version id), `update` of `endedAt` on the versions that stop (or start again) being
 *   current (`endings`), and `set` of each item (current version, `lastSeenAt`, `deletedAtSource: null`,
 *   search fields; `firstSeenAt` when new). ≤ 3 writes per version: the runner passes at most
 *   `MAX_VERSIONS_PER_CALL`.
 * - `markDeleted`: one transaction: `getAll` of the items, then of their current versions, `update` of those
 *   that exist and are not marked yet, and of their current version's `endedAt` (the deletion time).
 *   Versions are never removed.
 * - `touchItems`: one transaction: `getAll`, then `update` of `lastSeenAt` on those that exist.
 * - `markUnseenDeleted`: a query (kind, not deleted, `lastSeenAt` before) in pages, each page one batch
 *   (the items and their current versions' `endedAt`); repeating it is harmless.
 *
 * `endedAt` on a version document (docs/backup-format.md §6) says when it stopped being its item's current
 * version: null while it is the current version of an item that exists at the source, the capture time of
 * its successor, or the item's deletion at the source. It is always written in the same transaction or
 * batch as the item document, so the two never disagree; retention decides from it alone.
 * - `loadRun`: one `get` of `backupRuns/{runId}`.
 * - `takeLease`, `saveCheckpoint`, `releaseLease`, `finishRun`: one transaction each on
 *   `backupRuns/{runId}`, checking the lease (`holder`, `until`) and the state before writing, so a worker
 *   whose lease was taken over cannot move the cursor back.
 */
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import type { ChunkRef } from "../format/chunk-codec";
import { bounded } from "../sources/search-text";
import type { ItemMetadata, LabelRename, MailLabel, SearchFields } from "../sources/source";
import type { ServiceId, ServiceItemKind } from "@alpvault/contracts/services";

/**
 * Per call, at most this many versions: three writes each at most (the version, its item, the version it
 * supersedes), under Firestore's 500-write limit.
 */
export const MAX_VERSIONS_PER_CALL = 160;
/** Per call, at most this many chunk refs (one write each). */
export const MAX_CHUNK_REFS_PER_CALL = 450;
/** A run keeps at most this many item errors; `itemErrorCount` counts them all. */
export const MAX_ITEM_ERRORS = 100;

export type ItemKind = ServiceItemKind;

/** `<itemKey>@<versionKey>` (docs/backup-format.md §5): deterministic, so writes repeat safely. */
export function versionIdOf(itemKey: string, versionKey: string): string {
  return `${itemKey}@${versionKey}`;
}

/** Where a version's chunk list is: inline (≤ `MAX_INLINE_CHUNKS`) or a manifest object. */
export type ChunkList = { chunks: ChunkRef[] } | { manifestObject: string };

/** A version document (`…/items/{itemKey}/versions/{versionId}`). */
export type CatalogVersion = {
  versionId: string;
  itemKey: string;
  kind: ItemKind;
  versionKey: string;
  contentKey: string;
  /** ISO 8601. */
  capturedAt: string;
  runId: string;
  /** Content bytes. */
  size: number;
  /** Object bytes this version added to the bucket (0 when every chunk was there already). */
  storedBytes: number;
  contentDigest: string;
  dataKeyId: string;
  metadata: ItemMetadata;
  search: SearchFields;
  formatVersion: 1;
  /**
   * Set when the version's content was written again from the source because verification found its
   * objects damaged (integrity healing): a version already stored is then replaced (same id, its first
   * `capturedAt` and `runId` kept) instead of left as it is.
   */
  healedAt?: string;
  /**
   * When the version stopped being its item's current one (ISO 8601): null while it is the current version
   * of an item that exists at the source; its successor's capture time; or the item's deletion at the
   * source. The catalog sets it (the runner leaves it out); versions written before it existed lack it.
   */
  endedAt?: string | null;
} & ChunkList;

/**
 * What the item document keeps of its current version: enough to skip it or to reuse its chunk list, and
 * its capture time (a view as of an earlier date needs another version only when it is later; items
 * written before the capture time was kept lack it, and such a view reads their version).
 */
export type CurrentVersion = Pick<
  CatalogVersion,
  "versionId" | "versionKey" | "contentKey" | "size" | "contentDigest" | "dataKeyId" | "metadata" | "healedAt"
> & { capturedAt?: string } & ChunkList;

/** An item document (`…/resources/{resourceId}/items/{itemKey}`). */
export interface CatalogItem {
  itemKey: string;
  kind: ItemKind;
  /** The id at the source (Gmail message id, Drive file id). */
  sourceId: string;
  currentVersionId: string;
  current: CurrentVersion;
  /** ISO 8601, or null while the item exists at the source. */
  deletedAtSource: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  search: SearchFields;
  /**
   * Mail only: true when the message's date (`search.date`) is later than `firstSeenAt` (absent
   * otherwise), so a view as of a date finds the few messages held then but dated after it.
   */
  datedLater?: true;
}

/** A chunk the runner stored or reused (`chunkRefs/{chunkId}`). */
export interface ChunkRecord {
  id: string;
  /** Set for chunks this run encoded (a new `chunkRefs` document gets them); absent for reused ones. */
  size?: number;
  storedSize?: number;
  dataKeyId?: string;
}

export interface RunProgress {
  items: number;
  /** Source bytes read. */
  bytes: number;
  /** Object bytes written. */
  storedBytes: number;
}

/**
 * What the run expects to have done once the stream it is in ends (docs/backup-engine.md "Totals, rate and
 * time left"): the items and source bytes done before that stream plus what its listing said it holds
 * (`ListedWork`); null where the listing did not say. Never below what is done; at the stream's end, what
 * was done. `since` and `from`: when the stream began in this run and the progress then (its own pace is
 * measured from there).
 */
export interface RunExpectation {
  items: number | null;
  bytes: number | null;
  stream: ServiceKind;
  since: string;
  from: { items: number; bytes: number };
}

export interface ItemError {
  itemKey: string;
  reason: string;
  /** The kind of item (its stream): the next run of the resource fetches it again. */
  kind?: ItemKind;
}

export type RunState = "pending" | "running" | "succeeded" | "failed";

/** A service of a resource (a stream of its source): a mailbox has Gmail and Drive. */
export type ServiceKind = ServiceId;

/**
 * How one service's part of a run went. Each service of a resource succeeds or fails on its own: a failed
 * one keeps its cursor (the next run goes on from it), the others go on.
 */
export interface ServiceOutcome {
  /** Absent while the service's part runs. "unavailable": the service does not exist for this user. */
  state?: "succeeded" | "failed" | "unavailable";
  failureReason?: BackupFailureReason;
  /** What Google said, for the screen ("failedPrecondition", "insufficientPermissions", "no-drive-member"…). */
  detail?: string;
  /**
   * Items of the service this run did not back up, or backed up without their content, by reason
   * (Google's reason of an item error, "http-<status>", "not-exportable"…).
   */
  skipped: Record<string, number>;
  /**
   * What else the people looking at the resource should know about the items this run backed up, by note
   * ("external-owner": files owned outside the organisation, backed up from the user's Shared with me).
   */
  notes?: Record<string, number>;
}

export type ServiceOutcomes = Partial<Record<ServiceKind, ServiceOutcome>>;

/**
 * A large item a task delivery stopped in the middle of (its deadline came): what is stored of it, so the
 * next delivery goes on from `offset` (a Range request) instead of reading it all again. `offset` is a chunk
 * boundary: the chunks so far (in the partial manifest object) hold exactly its first `offset` bytes, and
 * the hash states are those after them.
 */
export interface PartialItem {
  kind: ItemKind;
  itemKey: string;
  versionKey: string;
  contentKey: string;
  offset: number;
  /** The chunk list so far, sealed like a manifest under `manifestVersionId`. */
  manifestObject: string;
  manifestVersionId: string;
  /** The data key the chunks and the partial manifest are under. */
  dataKeyId: string;
  /** The content digest's state (base64) after `offset` bytes. */
  digestState: string;
  /** The md5 check's state (base64) after `offset` bytes, when the content is checked against an md5. */
  md5State?: string;
}

/** `backupRuns/{runId}` (docs/backup-format.md §5). */
export interface RunRecord {
  runId: string;
  resourceId: string;
  policyId?: string;
  trigger?: "schedule" | "backup-now" | "policy-assigned";
  state: RunState;
  requestedAt?: string;
  startedAt?: string;
  finishedAt?: string;
  lease?: { holder: string; until: string } | null;
  /** The source's cursor (null: nothing backed up yet, a full listing is next). */
  cursor: string | null;
  progress: RunProgress;
  /**
   * What the run has handled so far, saved every few seconds between checkpoints for the screens' live
   * progress (a batch of hundreds of items would otherwise show nothing until it is recorded). Not
   * committed: a batch that is repeated counts its items again.
   */
  liveProgress?: RunProgress;
  unitsUsed: number;
  failureReason?: BackupFailureReason;
  itemErrors: ItemError[];
  itemErrorCount: number;
  /**
   * The full listing this run is in the middle of, per stream kind: when it began. At its end, items of
   * that kind not seen since are marked deleted at source (they vanished while the cursor was invalid).
   */
  listing?: Listing | null;
  /** Each service's part of the run so far. */
  services?: ServiceOutcomes;
  /** The large item a delivery stopped in the middle of, if any. */
  partial?: PartialItem | null;
  /** What the run expects to have done at the end of its current stream (absent: nothing listed yet). */
  expected?: RunExpectation | null;
}

export interface Listing {
  kind: ItemKind;
  /** ISO 8601. */
  startedAt: string;
}

export interface Checkpoint {
  cursor: string | null;
  progress: RunProgress;
  unitsUsed: number;
  /** Item errors of this stretch, appended (capped at `MAX_ITEM_ERRORS`, counted in full). */
  newItemErrors: ItemError[];
  /** The full listing in progress (null: none). */
  listing: Listing | null;
  /** Each service's part of the run so far (replaces the saved one). */
  services: ServiceOutcomes;
  /** The large item stopped in the middle of (replaces the saved one; null: none). */
  partial?: PartialItem | null;
  /** What the run expects at the end of its current stream (replaces the saved one). */
  expected?: RunExpectation | null;
}

export type RunOutcome = { state: "succeeded" } | { state: "failed"; failureReason: BackupFailureReason };

export type LeaseAnswer = "taken" | "held-by-another" | "finished" | "missing";

/** The catalog's database could not be reached or did not answer in time (docs/requirements.md#errors-and-messages "SQL database unresponsive"). */
export class CatalogUnavailableError extends Error {
  constructor(message = "The catalog is unavailable", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CatalogUnavailableError";
  }
}

/** gRPC codes of a database that is down or overloaded: DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, INTERNAL, UNAVAILABLE. */
const UNRESPONSIVE_GRPC_CODES = new Set([4, 8, 10, 13, 14]);

/** Whether an error says the catalog's database is unresponsive (ours, or Firestore's gRPC status). */
export function isCatalogUnavailable(error: unknown): boolean {
  if (error instanceof CatalogUnavailableError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  const details = (error as { details?: unknown } | null)?.details;
  return typeof code === "number" && UNRESPONSIVE_GRPC_CODES.has(code) && typeof details === "string";
}

/** The lease is not (any more) this worker's: another took it over. Nothing was written. */
export class LeaseLostError extends Error {
  constructor(readonly runId: string) {
    super(`The lease of run ${runId} is held by another worker`);
    this.name = "LeaseLostError";
  }
}

/**
 * An item's current labels and label search field after `renames` (by id), or undefined when it carries
 * none of them. Both catalogs rewrite items with it, so they agree.
 */
export function renamedItemLabels(
  item: Pick<CatalogItem, "current" | "search">,
  renames: LabelRename[],
): { labels: MailLabel[]; search: string[] } | undefined {
  const labels = item.current.metadata.labels;
  if (item.search.kind !== "mail" || !labels) return undefined;
  const to = new Map(renames.map((rename) => [rename.id, rename.to]));
  if (!labels.some((label) => to.has(label.id) && label.name !== to.get(label.id))) return undefined;
  const renamed = labels.map((label) => ({ id: label.id, name: to.get(label.id) ?? label.name }));
  return { labels: renamed, search: renamed.map((label) => bounded(label.name)) };
}

export interface Catalog {
  /** Items of a resource by key (absent keys: never backed up). */
  getItems(resourceId: string, itemKeys: string[]): Promise<Map<string, CatalogItem>>;
  /** Which of these chunk ids the organisation's chunk index has. */
  knownChunks(chunkIds: string[]): Promise<Set<string>>;
  /** Adds or refreshes chunk index entries (`lastReferencedAt = at`; `firstRunId` on new entries). */
  recordChunks(refs: ChunkRecord[], runId: string, at: string): Promise<void>;
  /**
   * Writes version documents (a version id already there is left as it is, unless the new one is
   * `healedAt`: then its content replaces the stored one's) and makes each the current version of its
   * item (clearing `deletedAtSource`).
   */
  writeVersions(resourceId: string, versions: CatalogVersion[]): Promise<void>;
  /** Marks items deleted at source (unknown or already marked keys are ignored); returns how many changed. */
  markDeleted(resourceId: string, itemKeys: string[], at: string): Promise<number>;
  /** Sets `lastSeenAt` of the items that exist (a full listing saw them unchanged). */
  touchItems(resourceId: string, itemKeys: string[], at: string): Promise<void>;
  /**
   * Marks deleted at source the items of `kind` not deleted yet whose `lastSeenAt` is before `before` (a
   * full listing that began then did not see them); returns how many.
   */
  markUnseenDeleted(resourceId: string, kind: ItemKind, before: string, at: string): Promise<number>;
  /**
   * The names of the mailbox's Gmail user labels (id → name) as the last run saw them; undefined before a
   * run first recorded them.
   */
  mailLabelNames(resourceId: string): Promise<Record<string, string> | undefined>;
  /**
   * Gmail labels renamed (same id, new name): the items whose current version carries one of them get the
   * new name in their search fields and current labels (their versions keep the names they were captured
   * with), then `labels` become the resource's label names. Repeating it is harmless.
   */
  renameMailLabels(
    resourceId: string,
    renames: LabelRename[],
    labels: Record<string, string>,
    checkedAt?: string,
  ): Promise<void>;
  /** When a run last compared the mailbox's label names with Gmail's (`renameMailLabels`'s `checkedAt`). */
  mailLabelsCheckedAt(resourceId: string): Promise<string | undefined>;

  loadRun(runId: string): Promise<RunRecord | undefined>;
  /**
   * Takes the run's lease for `holder` until `until` (a pending run becomes running, `startedAt` set):
   * "held-by-another" when another holder's lease is live at `now`; "finished" when the run succeeded or
   * failed; "missing" when there is no such run.
   */
  takeLease(runId: string, holder: string, until: string, now: string): Promise<LeaseAnswer>;
  /** Saves cursor and progress; `LeaseLostError` when `holder` does not hold the lease. */
  saveCheckpoint(runId: string, holder: string, checkpoint: Checkpoint): Promise<void>;
  /**
   * Saves the run's live progress (`RunRecord.liveProgress`), and its expectation when given; only the
   * screens read them.
   */
  saveLiveProgress(runId: string, progress: RunProgress, expected?: RunExpectation | null): Promise<void>;
  /** Gives the lease up (the run stays running; the re-enqueued task takes it). */
  releaseLease(runId: string, holder: string): Promise<void>;
  /** Ends the run (and its lease); `LeaseLostError` when `holder` does not hold the lease. */
  finishRun(runId: string, holder: string, outcome: RunOutcome, at: string): Promise<void>;
}
