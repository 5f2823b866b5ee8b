/** What `runBackup` takes and answers, and its defaults (docs/backup-engine.md, "Runner"). */
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import type { BlobStore } from "../blobstore/blob-store";
import type { DataKey } from "../format/keys";
import type { CallCounts, GoogleApi } from "../google/caller";
import type { Source } from "../sources/source";
import type { Catalog, RunProgress, ServiceOutcomes } from "./catalog";

/** Items of a batch fetched and stored at once to begin with (each holds at most one chunk group). */
export const ITEM_CONCURRENCY = 4;
/** The most items at once: the quota caller's requests in flight per user (Google's limit is about ten). */
export const MAX_ITEM_CONCURRENCY = 8;
/**
 * Items at least this large, from a source that can read from an offset, are stored so that a delivery
 * whose deadline comes in their middle saves what it has and the next goes on from there.
 */
export const RESUMABLE_ITEM_BYTES = 64 * 1024 * 1024;

export interface RunBackupOptions {
  run: { runId: string; resourceId: string };
  source: Source;
  blobStore: BlobStore;
  catalog: Catalog;
  /** The organisation's active data key (unwrapped). */
  dataKey: DataKey;
  organizationId: string;
  /** This worker (default: a random id). */
  holder?: string;
  /** Stop (checkpoint, answer "continue") once this time (ms since the epoch) is reached. */
  deadline?: number;
  /** Stop (checkpoint, answer "continue") once aborted. */
  signal?: AbortSignal;
  /** Stop (checkpoint, answer "continue") once this says so (e.g. the delivery spent its daily share). */
  stopWhen?: () => boolean;
  /**
   * Clock (ms since the epoch): leases, deadlines, dates, and the time items take for the adaptive
   * concurrency (give it the quota caller's clock, so that items' times and their quota waits are measured
   * on one clock; a test's fake clock makes the run's pace independent of the machine's speed).
   */
  now?: () => number;
  /** The run's Google usage (`meteredCaller(…).usage` of the source's caller): `unitsUsed` on the run. */
  usage?: CallCounts;
  /** Lease kept this long past the deadline. */
  leaseMarginMs?: number;
  /** Told after every saved checkpoint (progress so far). */
  onCheckpoint?: (progress: RunProgress) => void;
  /**
   * Items processed at once to begin with (default `ITEM_CONCURRENCY`); with a `usage` meter it adapts
   * to the run's quota waits between 2 and `maxItemConcurrency` (see `AdaptiveConcurrency`).
   */
  itemConcurrency?: number;
  /** The most items processed at once (default `MAX_ITEM_CONCURRENCY`). */
  maxItemConcurrency?: number;
  /** From this size on, an item may stop in its middle and go on later (default `RESUMABLE_ITEM_BYTES`). */
  resumableItemBytes?: number;
}

/** What a run's summary reports (the progress, units and outcomes it has recorded so far). */
export interface RunSummary {
  progress: RunProgress;
  unitsUsed: number;
  itemErrors: number;
  services: ServiceOutcomes;
}

export type RunBackupResult =
  | {
      outcome: "skipped";
      /** Another worker holds the lease, the run is over, or there is no such run. */
      why: "leased" | "finished" | "missing" | "lease-lost";
    }
  | ({
      outcome: "continue";
      /**
       * Google's daily limit was reached (403 `dailyLimitExceeded`): the run may go on from this instant
       * (the quota day's end, ms), not at once; and the API whose limit it was, when the error named it.
       */
      resumesAt?: number;
      dailyLimit?: GoogleApi;
    } & RunSummary)
  | ({ outcome: "succeeded" } & RunSummary)
  | ({ outcome: "failed"; failureReason: BackupFailureReason } & RunSummary);
