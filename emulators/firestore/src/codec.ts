/**
 * A document's fields packed as bytes: the protobuf encoding of `google.firestore.v1.MapValue` (field 1:
 * map<string, Value>), the form Firestore itself sends on the wire. The store keeps every document packed,
 * outside the JavaScript heap, and unpacks it when it is read: at a million documents the unpacked values
 * (an object per value) would take several times the memory.
 *
 * Value field numbers (google/firestore/v1/document.proto): boolean 1, integer 2, double 3, reference 5,
 * map 6, geo point 8, array 9, timestamp 10, null 11, string 17, bytes 18.
 */
import { Code, FirestoreError, type Fields, type Timestamp, type Value } from "./values";

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;

/** Bytes of a non-negative integer (< 2^53) as a varint. */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size += 1;
  }
  return size;
}

/** Bytes of an int64 varint (a negative number takes ten). */
const int64Size = (n: number): number => (n < 0 ? 10 : varintSize(n));

const tagSize = (field: number): number => (field < 16 ? 1 : 2);
export const bytesSize = (field: number, length: number): number =>
  tagSize(field) + varintSize(length) + length;

export function timestampSize(t: Timestamp): number {
  return (t.seconds !== 0 ? 1 + int64Size(t.seconds) : 0) + (t.nanos !== 0 ? 1 + varintSize(t.nanos) : 0);
}

/** Size of a Value message body. Strings' UTF-8 lengths are measured here and again when written. */
function valueSize(value: Value): number {
  if ("string_value" in value) return bytesSize(17, Buffer.byteLength(value.string_value));
  if ("integer_value" in value) return 1 + int64Size(value.integer_value);
  if ("double_value" in value) return 9;
  if ("boolean_value" in value || "null_value" in value) return 2;
  if ("timestamp_value" in value) return bytesSize(10, timestampSize(value.timestamp_value));
  if ("reference_value" in value) return bytesSize(5, Buffer.byteLength(value.reference_value));
  if ("bytes_value" in value) return bytesSize(18, value.bytes_value.length);
  if ("geo_point_value" in value) return bytesSize(8, 18);
  if ("array_value" in value) {
    let inner = 0;
    for (const element of value.array_value.values) inner += bytesSize(1, valueSize(element));
    return bytesSize(9, inner);
  }
  return bytesSize(6, fieldsSize(value.map_value.fields));
}

/** Size of a MapValue body: one entry (key 1, value 2) per field. */
function fieldsSize(fields: Fields): number {
  let size = 0;
  for (const key in fields) {
    const entry = bytesSize(1, Buffer.byteLength(key)) + bytesSize(2, valueSize(fields[key]!));
    size += bytesSize(1, entry);
  }
  return size;
}

export class Writer {
  at = 0;
  constructor(readonly buffer: Buffer) {}

  varint(n: number): void {
    while (n >= 128) {
      this.buffer[this.at++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    this.buffer[this.at++] = n;
  }

  int64(n: number): void {
    if (n >= 0) return this.varint(n);
    let bits = BigInt.asUintN(64, BigInt(n));
    for (let i = 0; i < 9; i++) {
      this.buffer[this.at++] = Number(bits & 127n) | 128;
      bits >>= 7n;
    }
    this.buffer[this.at++] = Number(bits);
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  string(field: number, text: string): void {
    this.tag(field, BYTES);
    this.varint(Buffer.byteLength(text));
    this.at += this.buffer.write(text, this.at);
  }

  /** A length-delimited field holding `bytes` as they are. */
  bytes(field: number, bytes: Uint8Array): void {
    this.tag(field, BYTES);
    this.varint(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  timestamp(field: number, t: Timestamp): void {
    this.tag(field, BYTES);
    this.varint(timestampSize(t));
    if (t.seconds !== 0) this.integer(1, t.seconds);
    if (t.nanos !== 0) this.integer(2, t.nanos);
  }

  integer(field: number, n: number): void {
    this.tag(field, VARINT);
    this.int64(n);
  }

  double(field: number, n: number): void {
    this.tag(field, FIXED64);
    this.buffer.writeDoubleLE(n, this.at);
    this.at += 8;
  }

  value(value: Value): void {
    if ("string_value" in value) return this.string(17, value.string_value);
    if ("integer_value" in value) return this.integer(2, value.integer_value);
    if ("double_value" in value) return this.double(3, value.double_value);
    if ("boolean_value" in value) return this.integer(1, value.boolean_value ? 1 : 0);
    if ("null_value" in value) return this.integer(11, 0);
    if ("reference_value" in value) return this.string(5, value.reference_value);
    if ("timestamp_value" in value) return this.timestamp(10, value.timestamp_value);
    if ("bytes_value" in value) return this.bytes(18, value.bytes_value);
    if ("geo_point_value" in value) {
      this.tag(8, BYTES);
      this.varint(18);
      this.double(1, value.geo_point_value.latitude);
      this.double(2, value.geo_point_value.longitude);
      return;
    }
    if ("array_value" in value) {
      let inner = 0;
      for (const element of value.array_value.values) inner += bytesSize(1, valueSize(element));
      this.tag(9, BYTES);
      this.varint(inner);
      for (const element of value.array_value.values) {
        this.tag(1, BYTES);
        this.varint(valueSize(element));
        this.value(element);
      }
      return;
    }
    this.tag(6, BYTES);
    this.varint(fieldsSize(value.map_value.fields));
    this.fields(value.map_value.fields);
  }

  fields(fields: Fields): void {
    for (const key in fields) {
      const value = fields[key]!;
      const size = valueSize(value);
      this.tag(1, BYTES);
      this.varint(bytesSize(1, Buffer.byteLength(key)) + bytesSize(2, size));
      this.string(1, key);
      this.tag(2, BYTES);
      this.varint(size);
      this.value(value);
    }
  }
}

/** Packs fields as a MapValue's bytes. */
export function packFields(fields: Fields): Buffer {
  const buffer = Buffer.allocUnsafe(fieldsSize(fields));
  const writer = new Writer(buffer);
  writer.fields(fields);
  return buffer;
}

class Reader {
  at = 0;
  constructor(readonly buffer: Buffer) {}

  varint(): number {
    let result = 0;
    let scale = 1;
    const from = this.at;
    for (let i = 0; i < 7; i++) {
      const byte = this.buffer[this.at++]!;
      result += (byte & 127) * scale;
      if (byte < 128) return result;
      scale *= 128;
    }
    // Longer than 49 bits: an int64 (possibly negative), read exactly.
    this.at = from;
    let bits = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = this.buffer[this.at++]!;
      bits |= BigInt(byte & 127) << shift;
      if (byte < 128) return Number(BigInt.asIntN(64, bits));
    }
  }

  /** Reads a length; the reader stays at the start of the bytes, whose end is returned. */
  enter(): number {
    const length = this.varint();
    return this.at + length;
  }

  string(): string {
    const end = this.enter();
    const text = this.buffer.toString("utf8", this.at, end);
    this.at = end;
    return text;
  }

  double(): number {
    const n = this.buffer.readDoubleLE(this.at);
    this.at += 8;
    return n;
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === FIXED64) this.at += 8;
    else if (wire === BYTES) this.at = this.enter();
    else if (wire === 5) this.at += 4;
    else throw new FirestoreError(Code.INTERNAL, "Unreadable packed document.");
  }

  /** A Value message ending at `end`. */
  value(end: number): Value {
    let value: Value | undefined;
    while (this.at < end) {
      const tag = this.varint();
      const field = Math.floor(tag / 8);
      if (field === 17) value = { string_value: this.string() };
      else if (field === 2) value = { integer_value: this.varint() };
      else if (field === 3) value = { double_value: this.double() };
      else if (field === 1) value = { boolean_value: this.varint() !== 0 };
      else if (field === 11) value = (this.varint(), { null_value: 0 });
      else if (field === 5) value = { reference_value: this.string() };
      else if (field === 10) value = { timestamp_value: this.timestamp() };
      else if (field === 18) {
        const stop = this.enter();
        value = { bytes_value: Uint8Array.prototype.slice.call(this.buffer, this.at, stop) };
        this.at = stop;
      } else if (field === 8) value = { geo_point_value: this.geoPoint() };
      else if (field === 9) value = { array_value: { values: this.array() } };
      else if (field === 6) value = { map_value: { fields: this.fields(this.enter()) } };
      else this.skip(tag % 8);
    }
    if (!value) throw new FirestoreError(Code.INTERNAL, "A packed value has no type.");
    return value;
  }

  timestamp(): Timestamp {
    const end = this.enter();
    const time = { seconds: 0, nanos: 0 };
    while (this.at < end) {
      const tag = this.varint();
      if (tag === 8) time.seconds = this.varint();
      else if (tag === 16) time.nanos = this.varint();
      else this.skip(tag % 8);
    }
    return time;
  }

  geoPoint(): { latitude: number; longitude: number } {
    const end = this.enter();
    const point = { latitude: 0, longitude: 0 };
    while (this.at < end) {
      const tag = this.varint();
      if (tag === 9) point.latitude = this.double();
      else if (tag === 17) point.longitude = this.double();
      else this.skip(tag % 8);
    }
    return point;
  }

  array(): Value[] {
    const end = this.enter();
    const values: Value[] = [];
    while (this.at < end) {
      const tag = this.varint();
      if (tag === 10) values.push(this.value(this.enter()));
      else this.skip(tag % 8);
    }
    return values;
  }

  /** MapValue entries up to `end`. */
  fields(end: number): Fields {
    const fields: Fields = {};
    while (this.at < end) {
      const tag = this.varint();
      if (tag !== 10) {
        this.skip(tag % 8);
        continue;
      }
      const entryEnd = this.enter();
      let key = "";
      let value: Value | undefined;
      while (this.at < entryEnd) {
        const entryTag = this.varint();
        if (entryTag === 10) key = this.string();
        else if (entryTag === 18) value = this.value(this.enter());
        else this.skip(entryTag % 8);
      }
      if (value) fields[key] = value;
    }
    return fields;
  }
}

/** Unpacks fields packed by `packFields`. */
export function unpackFields(packed: Buffer): Fields {
  return new Reader(packed).fields(packed.length);
}
