/**
 * The Drive store's content: where large uploads are spooled, the checksums of streamed content still being
 * computed, new revisions of a file's bytes, and reading a revision's bytes back (memory, generated or disk).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import {
  ContentSpool,
  DigestsStopped,
  contentStream,
  digestsOf,
  type Digests,
  type StreamedContent,
} from "./content";
import { hasGoogleContent } from "./google-types";
import { type StoredFile, type StoredRevision, hash, digest } from "./store-model";

export class DriveContentStore {
  /** Checksums of streamed content still being computed. */
  private readonly pending = new Set<Promise<void>>();
  /** Revisions whose checksums are not known and not yet being computed: the next `settled()` starts them. */
  private unstarted: StoredRevision[] = [];
  /** Aborted when the emulator stops: checksums still being computed are given up. */
  private stopping = new AbortController();
  private contentDirectory?: { path: string; temporary: boolean };

  /** Where large uploads are kept (`<data>/workspace/drive-content` on a server with a data folder). */
  useContentDir(path: string): void {
    mkdirSync(path, { recursive: true });
    this.contentDirectory = { path, temporary: false };
  }

  /** The content folder; a temporary one until `useContentDir` names another. */
  contentDir(): string {
    this.contentDirectory ??= {
      path: mkdtempSync(join(tmpdir(), "alpvault-drive-content-")),
      temporary: true,
    };
    return this.contentDirectory.path;
  }

  /** Gives up checksums still being computed and removes a temporary content folder (the emulator stops). */
  dispose(): void {
    this.unstarted = [];
    this.stopping.abort();
    this.stopping = new AbortController();
    if (this.contentDirectory?.temporary)
      rmSync(this.contentDirectory.path, { recursive: true, force: true });
    this.contentDirectory = undefined;
  }

  /** A new spool for a large upload, in the content folder. */
  newSpool(): ContentSpool {
    return new ContentSpool(this.contentDir(), `upload-${randomBytes(12).toString("hex")}`);
  }

  /** Resolves when every checksum of streamed content is known (computing those not yet started). */
  async settled(): Promise<void> {
    while (this.unstarted.length > 0 || this.pending.size > 0) {
      const starting = this.unstarted;
      this.unstarted = [];
      for (const revision of starting) this.startDigests(revision);
      await Promise.all([...this.pending]);
    }
  }

  /**
   * Marks a streamed revision's checksums as wanted: they are computed by streaming the content when
   * something first needs them (`settled()`, which the server's start and every answer that may show
   * them call), so a file of many GiB that nothing asks the checksums of costs nothing. A stop gives up
   * those still being computed, and the revision keeps none.
   */
  computeDigests(revision: StoredRevision): void {
    if (revision.stream) this.unstarted.push(revision);
  }

  private startDigests(revision: StoredRevision): void {
    if (!revision.stream) return;
    const { stream } = revision;
    const { signal } = this.stopping;
    const job = (async () => {
      for (;;) {
        try {
          const sums = await digestsOf(stream, this.contentDir(), signal);
          revision.md5 = sums.md5;
          revision.sha256 = sums.sha256;
          return;
        } catch (error) {
          // Given up: by this emulator's stop, or (generated content shared with another emulator) by
          // that one's, and then computed again here.
          if (!(error instanceof DigestsStopped)) throw error;
          if (signal.aborted) return;
        }
      }
    })();
    const tracked = job.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Bytes [start, end] of a revision as a stream (memory, generated or disk content alike). */
  read(revision: StoredRevision, start = 0, end = revision.size - 1): Readable {
    if (revision.stream) return contentStream(revision.stream, this.contentDir(), start, end);
    return Readable.from(end < start ? [] : [revision.content.subarray(start, end + 1)], {
      objectMode: false,
    });
  }

  /** Removes a deleted revision's content from disk (content in memory or generated has nothing to remove). */
  forget(revision: StoredRevision): void {
    // Content that could not be removed only takes space: a failed removal must not end the emulator.
    if (revision.stream?.kind === "disk")
      rm(join(this.contentDir(), revision.stream.name), { force: true }).catch(() => undefined);
  }

  /**
   * A new revision of `content`: bytes in memory, or streamed content whose checksums are given (a finished
   * upload spool) or computed when first needed (`computeDigests`).
   */
  newRevision(
    file: StoredFile,
    content: Buffer | { stream: StreamedContent; digests?: Digests },
    userId: string,
    modifiedTime: string,
  ): StoredRevision {
    file.revisionCounter += 1;
    const id = hasGoogleContent(file.mimeType)
      ? String(file.revisionCounter)
      : `0B${hash(`revision:${file.id}:${file.revisionCounter}`).toString("base64url").slice(0, 40)}`;
    const base = { id, mimeType: file.mimeType, modifiedTime, userId, keepForever: false };
    if (Buffer.isBuffer(content)) {
      const sums = digest(content);
      return { ...base, content, size: content.length, md5: sums.md5, sha256: sums.sha256 };
    }
    const revision: StoredRevision = {
      ...base,
      content: Buffer.alloc(0),
      stream: { ...content.stream },
      size: content.stream.size,
      md5: content.digests?.md5 ?? "",
      sha256: content.digests?.sha256 ?? "",
    };
    if (!content.digests) this.computeDigests(revision);
    return revision;
  }
}
