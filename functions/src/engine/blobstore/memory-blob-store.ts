/**
 * A BlobStore in memory, with the same semantics as Cloud Storage behind `GcsBlobStore` (write-once,
 * ranges, name-ordered pages, not-found). For fast tests of the engine's other parts; `failNext` makes the
 * next calls fail as "unavailable", the way a store outage looks to the engine.
 */
import { Readable } from "node:stream";
import {
  BlobStoreError,
  checkBlobName,
  checkListOptions,
  checkRange,
  type BlobStore,
  type ByteRange,
  type ListOptions,
  type ListPage,
} from "./blob-store";

export class MemoryBlobStore implements BlobStore {
  private readonly objects = new Map<string, Buffer>();
  private sorted: string[] | undefined;
  private failures = 0;

  /** The next `count` calls fail with `unavailable` (and change nothing). */
  failNext(count: number): void {
    this.failures = count;
  }

  /** How many objects are stored (for tests). */
  get size(): number {
    return this.objects.size;
  }

  private enter(): void {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new BlobStoreError("unavailable", "Object storage is unavailable");
    }
  }

  async putIfAbsent(name: string, body: Buffer): Promise<boolean> {
    this.enter();
    checkBlobName(name);
    if (this.objects.has(name)) return false;
    this.objects.set(name, Buffer.from(body));
    this.sorted = undefined;
    return true;
  }

  async get(name: string, range?: ByteRange): Promise<Buffer> {
    this.enter();
    return this.read(name, range);
  }

  private read(name: string, range: ByteRange | undefined): Buffer {
    checkBlobName(name);
    checkRange(range);
    const data = this.objects.get(name);
    if (!data) throw new BlobStoreError("not-found", "No such object");
    if (!range || data.length === 0) return Buffer.from(data);
    if (range.offset >= data.length)
      throw new BlobStoreError("invalid", "The range starts past the end of the object");
    const end = range.length === undefined ? data.length : Math.min(data.length, range.offset + range.length);
    return Buffer.from(data.subarray(range.offset, end));
  }

  createReadStream(name: string, range?: ByteRange): Readable {
    // Like a network stream, failures arrive as stream errors, never as a throw from here.
    const load = (stream: Readable): void => {
      try {
        this.enter();
        const data = this.read(name, range);
        if (data.length > 0) stream.push(data);
        stream.push(null);
      } catch (error) {
        stream.destroy(error as Error);
      }
    };
    let started = false;
    return new Readable({
      read(this: Readable) {
        if (started) return;
        started = true;
        load(this);
      },
    });
  }

  async exists(name: string): Promise<boolean> {
    this.enter();
    checkBlobName(name);
    return this.objects.has(name);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListPage> {
    this.enter();
    const max = checkListOptions(options);
    let after = "";
    if (options.pageToken) {
      after = Buffer.from(options.pageToken, "base64url").toString("utf8");
      if (!after) throw new BlobStoreError("invalid", "Invalid page token");
    }
    // Names in order, kept across deletes (a deleted name is skipped): a sweep that deletes while it lists
    // sorts once, not once per page. A page starts by binary search, not by walking the names before it.
    const sorted = (this.sorted ??= [...this.objects.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const from = after > prefix ? after : prefix;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((sorted[middle] as string) < from) low = middle + 1;
      else high = middle;
    }
    const names: string[] = [];
    for (let index = low; index < sorted.length; index += 1) {
      const name = sorted[index] as string;
      if (!name.startsWith(prefix)) break;
      if ((after && name <= after) || !this.objects.has(name)) continue;
      if (names.length === max) {
        return {
          names,
          nextPageToken: Buffer.from(names[names.length - 1] as string, "utf8").toString("base64url"),
        };
      }
      names.push(name);
    }
    return { names };
  }

  async delete(name: string): Promise<void> {
    this.enter();
    checkBlobName(name);
    this.objects.delete(name);
  }
}
