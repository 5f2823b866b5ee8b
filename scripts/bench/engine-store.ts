/**
 * The engine bench's backup store and measuring tools: a blob store that counts the object bytes written
 * (over the memory store, over one that keeps no bodies, for memory figures, or over one that keeps them in
 * a folder on disk, for memory figures of a backup that is restored afterwards), a backup store (blob
 * store + memory catalog + data key) that runs `runBackup` per resource from its last cursor, and samplers
 * for quota units, event-loop load and resident memory. Nothing here imports the Workspace emulator, so a
 * process measuring its memory holds the engine alone.
 */
import { performance } from "node:perf_hooks";
import { constants as fsConstants } from "node:fs";
import { mkdir, open, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";

import {
  BlobStoreError,
  checkBlobName,
  checkRange,
  type BlobStore,
  type ByteRange,
  type ListOptions,
  type ListPage,
} from "../../functions/src/engine/blobstore/blob-store";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { newDataKey, type DataKey } from "../../functions/src/engine/format/keys";
import type { CallCounts } from "../../functions/src/engine/google/caller";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup, type RunBackupResult } from "../../functions/src/engine/runner/run-backup";
import type { Source } from "../../functions/src/engine/sources/source";

export const ORGANIZATION_ID = "org-engine-bench";

/** A blob store that keeps object names and sizes only (so memory figures measure the engine alone). */
export class DiscardingBlobStore implements BlobStore {
  private readonly sizes = new Map<string, number>();

  async putIfAbsent(name: string, body: Buffer): Promise<boolean> {
    if (this.sizes.has(name)) return false;
    this.sizes.set(name, body.length);
    return true;
  }

  async get(): Promise<Buffer> {
    throw new BlobStoreError("not-found", "The bench's discarding store keeps no object bodies");
  }

  createReadStream(): Readable {
    return new Readable({
      read() {
        this.destroy(new BlobStoreError("not-found", "The bench's discarding store keeps no object bodies"));
      },
    });
  }

  async exists(name: string): Promise<boolean> {
    return this.sizes.has(name);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListPage> {
    const names = [...this.sizes.keys()].filter((name) => name.startsWith(prefix)).sort();
    const after = options.pageToken ? Buffer.from(options.pageToken, "base64url").toString("utf8") : "";
    const page = names.filter((name) => name > after).slice(0, options.maxResults ?? 1000);
    const last = page[page.length - 1];
    return page.length > 0 && last !== names[names.length - 1]
      ? { names: page, nextPageToken: Buffer.from(last as string).toString("base64url") }
      : { names: page };
  }

  async delete(name: string): Promise<void> {
    this.sizes.delete(name);
  }
}

/**
 * A blob store whose objects are files in one folder (the name URI-encoded), so that gigabytes of objects
 * neither sit in the measured process's memory nor are lost: write-once, ranges, name-ordered pages.
 */
export class DiskBlobStore implements BlobStore {
  private ready: Promise<unknown> | undefined;

  constructor(private readonly folder: string) {}

  private path(name: string): string {
    checkBlobName(name);
    const file = encodeURIComponent(name);
    if (file.length > 255) throw new BlobStoreError("invalid", "The object name is too long for this store");
    return join(this.folder, file);
  }

  private notFound(error: unknown): never {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new BlobStoreError("not-found", "No such object");
    }
    throw error;
  }

  async putIfAbsent(name: string, body: Buffer): Promise<boolean> {
    const path = this.path(name);
    await (this.ready ??= mkdir(this.folder, { recursive: true }));
    let file;
    try {
      file = await open(path, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
    try {
      await file.writeFile(body);
    } finally {
      await file.close();
    }
    return true;
  }

  async get(name: string, range?: ByteRange): Promise<Buffer> {
    checkRange(range);
    const path = this.path(name);
    if (!range) return readFile(path).catch((error: unknown) => this.notFound(error));
    const file = await open(path).catch((error: unknown) => this.notFound(error));
    try {
      const { size } = await file.stat();
      if (size === 0) return Buffer.alloc(0);
      if (range.offset >= size) {
        throw new BlobStoreError("invalid", "The range starts past the end of the object");
      }
      const end = range.length === undefined ? size : Math.min(size, range.offset + range.length);
      const data = Buffer.alloc(end - range.offset);
      await file.read(data, 0, data.length, range.offset);
      return data;
    } finally {
      await file.close();
    }
  }

  createReadStream(name: string, range?: ByteRange): Readable {
    const get = () => this.get(name, range);
    let started = false;
    return new Readable({
      read(this: Readable) {
        if (started) return;
        started = true;
        get().then(
          (data) => {
            if (data.length > 0) this.push(data);
            this.push(null);
          },
          (error: Error) => this.destroy(error),
        );
      },
    });
  }

  async exists(name: string): Promise<boolean> {
    return stat(this.path(name)).then(
      () => true,
      () => false,
    );
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListPage> {
    const files = await readdir(this.folder).catch(() => [] as string[]);
    const names = files
      .map((file) => decodeURIComponent(file))
      .filter((name) => name.startsWith(prefix))
      .sort();
    const after = options.pageToken ? Buffer.from(options.pageToken, "base64url").toString("utf8") : "";
    const page = names.filter((name) => name > after).slice(0, options.maxResults ?? 1000);
    const last = page[page.length - 1];
    return page.length > 0 && last !== names[names.length - 1]
      ? { names: page, nextPageToken: Buffer.from(last as string).toString("base64url") }
      : { names: page };
  }

  async delete(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }
}

/** Counts the objects and bytes actually written (`putIfAbsent` answering true) through another store. */
export class CountingBlobStore implements BlobStore {
  objectsWritten = 0;
  bytesWritten = 0;

  constructor(private readonly inner: BlobStore) {}

  async putIfAbsent(name: string, body: Buffer): Promise<boolean> {
    const written = await this.inner.putIfAbsent(name, body);
    if (written) {
      this.objectsWritten += 1;
      this.bytesWritten += body.length;
    }
    return written;
  }

  get(name: string, range?: ByteRange): Promise<Buffer> {
    return this.inner.get(name, range);
  }

  createReadStream(name: string, range?: ByteRange): Readable {
    return this.inner.createReadStream(name, range);
  }

  exists(name: string): Promise<boolean> {
    return this.inner.exists(name);
  }

  list(prefix: string, options?: ListOptions): Promise<ListPage> {
    return this.inner.list(prefix, options);
  }

  delete(name: string): Promise<void> {
    return this.inner.delete(name);
  }
}

/** What a run that succeeded reports. */
export type FinishedRun = Omit<Extract<RunBackupResult, { outcome: "failed" }>, "outcome" | "failureReason">;

export interface TimedRun {
  result: FinishedRun;
  startedAt: number;
  finishedAt: number;
}

/** One organisation's backups: objects (counted), the memory catalog, a data key, each resource's cursor. */
export class BackupStore {
  readonly blobStore: CountingBlobStore;
  readonly catalog = new MemoryCatalog();
  readonly dataKey: DataKey = newDataKey();
  private runs = 0;
  private readonly cursors = new Map<string, string | null>();

  constructor(inner: BlobStore = new MemoryBlobStore()) {
    this.blobStore = new CountingBlobStore(inner);
  }

  /** A new run of the resource from its last cursor, to its end. */
  async backup(resourceId: string, source: Source, usage?: CallCounts): Promise<TimedRun> {
    this.runs += 1;
    const runId = `run-${this.runs}`;
    this.catalog.createRun({ runId, resourceId, cursor: this.cursors.get(resourceId) ?? null });
    const startedAt = performance.now();
    const result = await runBackup({
      run: { runId, resourceId },
      source,
      blobStore: this.blobStore,
      catalog: this.catalog,
      dataKey: this.dataKey,
      organizationId: ORGANIZATION_ID,
      ...(usage ? { usage } : {}),
    });
    const finishedAt = performance.now();
    this.cursors.set(resourceId, this.catalog.run(runId)?.cursor ?? null);
    if (result.outcome !== "succeeded") {
      throw new Error(`a backup run ended "${result.outcome}": ${JSON.stringify(result)}`);
    }
    if (result.itemErrors > 0) throw new Error(`a backup run had ${result.itemErrors} item errors`);
    return { result, startedAt, finishedAt };
  }
}

export interface Sample {
  /** performance.now() */
  at: number;
  value: number;
}

/** Reads `read()` every `everyMs` until stopped; returns the samples (a first one at once, a last at stop). */
export function sampler(everyMs: number, read: () => number): { stop(): Sample[] } {
  const samples: Sample[] = [{ at: performance.now(), value: read() }];
  const timer = setInterval(() => samples.push({ at: performance.now(), value: read() }), everyMs);
  return {
    stop() {
      clearInterval(timer);
      samples.push({ at: performance.now(), value: read() });
      return samples;
    },
  };
}

/** The sampled value at a moment (linear between the two samples around it). */
function valueAt(samples: Sample[], at: number): number {
  let previous = samples[0] as Sample;
  for (const sample of samples) {
    if (sample.at >= at) {
      if (sample.at === previous.at) return sample.value;
      return (
        previous.value + ((sample.value - previous.value) * (at - previous.at)) / (sample.at - previous.at)
      );
    }
    previous = sample;
  }
  return previous.value;
}

export interface SteadyRate {
  /** Units per quota minute over the steady part. */
  perMinute: number;
  /** The steady part, in quota minutes. */
  minutes: number;
  /** The whole run, in quota minutes. */
  runMinutes: number;
}

/**
 * Units spent per quota minute over the steady part of a run: without its first quota minute (the first
 * listing page, the label list) and its last half minute (the last page, the last checkpoint). Start the
 * run with the caller's buckets spent (`BenchWorkspace.spendFirstBucket`): a full bucket would let the
 * run spend more than the limit until it is empty, which is not throughput.
 */
export function steadyRate(
  samples: Sample[],
  run: { startedAt: number; finishedAt: number },
  minuteMs: number,
): SteadyRate {
  const from = run.startedAt + minuteMs;
  const to = run.finishedAt - minuteMs / 2;
  const runMinutes = (run.finishedAt - run.startedAt) / minuteMs;
  if (to - from < minuteMs) {
    throw new Error(`the run lasted ${runMinutes.toFixed(1)} quota minutes: too short for a steady part`);
  }
  const minutes = (to - from) / minuteMs;
  return { perMinute: (valueAt(samples, to) - valueAt(samples, from)) / minutes, minutes, runMinutes };
}

/** The share of wall time this process's event loop was busy while `work` ran (1: CPU-bound). */
export async function busyShare<T>(work: () => Promise<T>): Promise<{ value: T; busy: number }> {
  const before = performance.eventLoopUtilization();
  const value = await work();
  return { value, busy: performance.eventLoopUtilization(before).utilization };
}

/** Where resident memory was when it peaked: V8's heap, and memory outside it (Buffers). */
export interface MemoryAtPeak {
  heapUsedBytes: number;
  heapTotalBytes: number;
  arrayBuffersBytes: number;
}

/**
 * Peak and baseline of the process's resident set size, sampled every `everyMs` while `work` runs, with
 * the heap and Buffer figures at the peak. The timer runs on this event loop: `longestGapMs` says how late
 * a sample could come.
 */
export async function peakRss<T>(
  everyMs: number,
  work: () => Promise<T>,
): Promise<{
  value: T;
  baselineBytes: number;
  peakBytes: number;
  atPeak: MemoryAtPeak;
  samples: number;
  longestGapMs: number;
}> {
  const breakdown = (): MemoryAtPeak => {
    const usage = process.memoryUsage();
    return {
      heapUsedBytes: usage.heapUsed,
      heapTotalBytes: usage.heapTotal,
      arrayBuffersBytes: usage.arrayBuffers,
    };
  };
  const baselineBytes = process.memoryUsage.rss();
  let peakBytes = baselineBytes;
  let atPeak = breakdown();
  let samples = 0;
  let last = performance.now();
  let longestGapMs = 0;
  const sample = () => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    samples += 1;
    const rss = process.memoryUsage.rss();
    if (rss > peakBytes) {
      peakBytes = rss;
      atPeak = breakdown();
    }
  };
  const timer = setInterval(sample, everyMs);
  try {
    const value = await work();
    sample();
    return { value, baselineBytes, peakBytes, atPeak, samples, longestGapMs };
  } finally {
    clearInterval(timer);
  }
}
