/**
 * CRC32C (Castagnoli) and MD5 as Cloud Storage reports them: big-endian bytes, base64 (`crc32c`, `md5Hash`,
 * `x-goog-hash`). Slicing-by-8 keeps large uploads cheap.
 */
import { createHash } from "node:crypto";

const TABLES: Uint32Array[] = [];
{
  const base = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    base[n] = c >>> 0;
  }
  TABLES.push(base);
  for (let t = 1; t < 8; t += 1) {
    const previous = TABLES[t - 1] as Uint32Array;
    const table = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      const value = previous[n] as number;
      table[n] = ((base[value & 0xff] as number) ^ (value >>> 8)) >>> 0;
    }
    TABLES.push(table);
  }
}

/** Continues a CRC32C over more bytes (start with 0). */
export function crc32cUpdate(crc: number, data: Uint8Array): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = TABLES as [
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
  ];
  let c = ~crc >>> 0;
  let i = 0;
  const end8 = data.length - (data.length % 8);
  for (; i < end8; i += 8) {
    const low =
      (c ^
        ((data[i] as number) |
          ((data[i + 1] as number) << 8) |
          ((data[i + 2] as number) << 16) |
          ((data[i + 3] as number) << 24))) >>>
      0;
    c =
      (t7[low & 0xff] as number) ^
      (t6[(low >>> 8) & 0xff] as number) ^
      (t5[(low >>> 16) & 0xff] as number) ^
      (t4[low >>> 24] as number) ^
      (t3[data[i + 4] as number] as number) ^
      (t2[data[i + 5] as number] as number) ^
      (t1[data[i + 6] as number] as number) ^
      (t0[data[i + 7] as number] as number);
  }
  for (; i < data.length; i += 1) c = (t0[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

export function crc32c(data: Uint8Array): number {
  return crc32cUpdate(0, data);
}

/** The CRC32C as Cloud Storage writes it: 4 big-endian bytes in base64. */
export function crc32cBase64(data: Uint8Array): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32c(data));
  return bytes.toString("base64");
}

export function md5Base64(data: Uint8Array): string {
  return createHash("md5").update(data).digest("base64");
}
