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
import { ContentSpool, contentStream, digestsOf, type Digests, type StreamedContent } from "./content";
import { hasGoogleContent } from "./google-types";
import { type StoredFile, type StoredRevision, hash, digest } from "./store-model";

export class DriveContentStore {
  /** Checksums of streamed content still being computed. */
  private readonly pending = new Set<Promise<void>>();
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

  /** Removes a temporary content folder (the emulator stops). */
  dispose(): void {
    if (this.contentDirectory?.temporary)
      rmSync(this.contentDirectory.path, { recursive: true, force: true });
    this.contentDirectory = undefined;
  }

  /** A new spool for a large upload, in the content folder. */
  newSpool(): ContentSpool {
    return new ContentSpool(this.contentDir(), `upload-${randomBytes(12).toString("hex")}`);
  }

  /** Resolves when every checksum of streamed content is known. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Computes a streamed revision's checksums in the background (`settled()` waits for them). */
  computeDigests(revision: StoredRevision): void {
    if (!revision.stream) return;
    const job = digestsOf(revision.stream, this.contentDir()).then((sums) => {
      revision.md5 = sums.md5;
      revision.sha256 = sums.sha256;
    });
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
   * upload spool) or computed in the background (`settled()` waits for them).
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
