/**
 * The documents a read streams back (RunQueryResponse, BatchGetDocumentsResponse), encoded here straight
 * from the store's packed fields: a stored document's MapValue entries become the Document's `fields`
 * entries by changing their field number (1 → 2), with no value unpacked and encoded again. The protocol
 * classes' own encoder spends most of a page's time otherwise. Field numbers follow
 * google/firestore/v1/document.proto and firestore.proto.
 */
import { bytesSize, timestampSize, Writer } from "./codec";
import type { Timestamp } from "./values";

export interface DocumentBytes {
  name: string;
  /** The fields packed (codec.ts `packFields`). */
  packed: Buffer;
  createTime: Timestamp;
  updateTime: Timestamp;
}

/** The MapValue entries of `packed`, as [start, end) of each entry's bytes. */
function entries(packed: Buffer): [number, number][] {
  const spans: [number, number][] = [];
  let at = 0;
  while (at < packed.length) {
    at += 1; // tag 0x0a: field 1, length-delimited
    let length = 0;
    let scale = 1;
    for (;;) {
      const byte = packed[at++]!;
      length += (byte & 127) * scale;
      if (byte < 128) break;
      scale *= 128;
    }
    spans.push([at, at + length]);
    at += length;
  }
  return spans;
}

function documentSize(document: DocumentBytes, spans: [number, number][]): number {
  let size = bytesSize(1, Buffer.byteLength(document.name));
  for (const [start, end] of spans) size += bytesSize(2, end - start);
  return (
    size + bytesSize(3, timestampSize(document.createTime)) + bytesSize(4, timestampSize(document.updateTime))
  );
}

function writeDocument(
  writer: Writer,
  field: number,
  document: DocumentBytes,
  spans: [number, number][],
): void {
  writer.tag(field, 2);
  writer.varint(documentSize(document, spans));
  writer.string(1, document.name);
  for (const [start, end] of spans) writer.bytes(2, document.packed.subarray(start, end));
  writer.timestamp(3, document.createTime);
  writer.timestamp(4, document.updateTime);
}

const transactionSize = (transaction: Uint8Array | undefined): number =>
  transaction ? bytesSize(2, transaction.length) : 0;

/** A RunQueryResponse: a document, or the end of the stream (`done`). */
export function runQueryResponse(response: {
  document?: DocumentBytes;
  transaction?: Uint8Array;
  readTime: Timestamp;
  done?: boolean;
}): Buffer {
  const { document, transaction, readTime, done } = response;
  const spans = document ? entries(document.packed) : [];
  let size = transactionSize(transaction) + bytesSize(3, timestampSize(readTime)) + (done ? 2 : 0);
  if (document) size += bytesSize(1, documentSize(document, spans));
  const writer = new Writer(Buffer.allocUnsafe(size));
  if (document) writeDocument(writer, 1, document, spans);
  if (transaction) writer.bytes(2, transaction);
  writer.timestamp(3, readTime);
  if (done) writer.integer(6, 1);
  return writer.buffer;
}

/** A BatchGetDocumentsResponse: a document found, or the name of one missing. */
export function batchGetResponse(response: {
  found?: DocumentBytes;
  missing?: string;
  transaction?: Uint8Array;
  readTime: Timestamp;
}): Buffer {
  const { found, missing, transaction, readTime } = response;
  const spans = found ? entries(found.packed) : [];
  let size = bytesSize(4, timestampSize(readTime)) + (transaction ? bytesSize(3, transaction.length) : 0);
  if (found) size += bytesSize(1, documentSize(found, spans));
  if (missing !== undefined) size += bytesSize(2, Buffer.byteLength(missing));
  const writer = new Writer(Buffer.allocUnsafe(size));
  if (found) writeDocument(writer, 1, found, spans);
  if (missing !== undefined) writer.string(2, missing);
  if (transaction) writer.bytes(3, transaction);
  writer.timestamp(4, readTime);
  return writer.buffer;
}

/** Wraps a method's response encoder so that responses already encoded (a Buffer) pass through. */
export function passEncoded<T>(serialize: (message: T) => Buffer): (message: T | Buffer) => Buffer {
  return (message) => (Buffer.isBuffer(message) ? message : serialize(message));
}
