/**
 * An export's file on its way to the bucket through its resumable upload session (see job.ts): whole
 * 256 KiB blocks go out once enough is waiting, the rest (the tail) waits for more, or for the checkpoint
 * that keeps it.
 */
import { uploadPart, UPLOAD_BLOCK, type UploadTarget } from "./upload";

/** The file's bytes on their way to the bucket: whole blocks go out, the rest waits. */
export class Output {
  private pieces: Buffer[];
  private pending: number;

  constructor(
    private readonly target: UploadTarget,
    private readonly session: string,
    public uploaded: number,
    tail: Buffer,
    private readonly flushBytes: number,
  ) {
    this.pieces = tail.length > 0 ? [tail] : [];
    this.pending = tail.length;
  }

  /** The file's size so far. */
  get size(): number {
    return this.uploaded + this.pending;
  }

  async write(piece: Buffer): Promise<void> {
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.pending += piece.length;
    if (this.pending >= this.flushBytes) await this.flush();
  }

  /** Sends every whole block waiting; what is left is under 256 KiB. */
  async flush(): Promise<void> {
    const whole = this.pending - (this.pending % UPLOAD_BLOCK);
    if (whole === 0) return;
    // One buffer of the whole blocks (the request's body); the rest is copied out of the last piece.
    const pieces = this.pieces;
    let taken = 0;
    let split = 0;
    while (split < pieces.length && taken + pieces[split]!.length <= whole) taken += pieces[split++]!.length;
    const head = pieces.slice(0, split);
    const rest: Buffer[] = pieces.slice(split);
    if (taken < whole) {
      const piece = rest.shift()!;
      head.push(piece.subarray(0, whole - taken));
      rest.unshift(Buffer.from(piece.subarray(whole - taken)));
    }
    this.pieces = rest;
    this.pending -= whole;
    this.uploaded = await uploadPart(this.target, this.session, this.uploaded, Buffer.concat(head, whole));
  }

  tail(): Buffer {
    return Buffer.concat(this.pieces, this.pending);
  }

  /** Sends the rest and completes the object. */
  async finish(): Promise<number> {
    const total = this.size;
    this.uploaded = await uploadPart(this.target, this.session, this.uploaded, this.tail(), total);
    this.pieces = [];
    this.pending = 0;
    return total;
  }
}
