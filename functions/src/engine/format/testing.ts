import { createCipheriv, createHash } from "node:crypto";

/**
 * Deterministic test data for the format's tests (and the PRNG the gear table was generated with).
 */

/** mulberry32: a small 32-bit PRNG; each call returns the next unsigned 32-bit value. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** `length` pseudo-random bytes from `seed` (incompressible, reproducible): an AES-256-CTR keystream. */
export function seededBytes(seed: number, length: number): Buffer {
  const key = createHash("sha256").update(`alpvault-test-data:${seed}`).digest();
  return createCipheriv("aes-256-ctr", key, Buffer.alloc(16)).update(Buffer.alloc(length));
}

const WORDS = ["backup", "mail", "drive", "invoice", "meeting", "report", "quarter", "budget", "team", "the"];

/** `length` bytes of word salad from `seed` (compresses well, like mail text). */
export function seededText(seed: number, length: number): Buffer {
  const next = mulberry32(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const word = WORDS[next() % WORDS.length]!;
    parts.push(word);
    size += word.length + 1;
  }
  return Buffer.from(parts.join(" "), "utf8").subarray(0, length);
}
