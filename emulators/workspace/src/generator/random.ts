/**
 * Seeded randomness for the organisation generator: mulberry32 for choices and numbers, and an AES-CTR key
 * stream for bulk bytes. Both are defined bit for bit, so a seed gives the same output on every machine.
 */
import { createCipheriv, createHash } from "node:crypto";

/** A 32-bit seed derived from any labels, so independent parts of the organisation get independent streams. */
export function seedOf(...parts: Array<string | number>): number {
  return createHash("sha256").update(parts.join("\u0000")).digest().readUInt32LE(0);
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A stream for a labelled part, derived from this one's seed and the labels (not from its position). */
  static of(...parts: Array<string | number>): Random {
    return new Random(seedOf(...parts));
  }

  /** The next 32-bit unsigned integer (mulberry32). */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("Cannot pick from an empty list");
    return item;
  }

  /** Picks by weight: `[[item, weight], ...]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let point = this.next() * total;
    for (const [item, weight] of choices) {
      point -= weight;
      if (point < 0) return item;
    }
    const last = choices[choices.length - 1];
    if (!last) throw new Error("Cannot pick from an empty list");
    return last[0];
  }

  /** `count` distinct items (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index -= 1) {
      const other = Math.floor(this.next() * (index + 1));
      const a = copy[index] as T;
      copy[index] = copy[other] as T;
      copy[other] = a;
    }
    return copy.slice(0, Math.max(0, count));
  }

  /** Log-uniform in [min, max]: as many small values as large ones per order of magnitude. */
  logUniform(min: number, max: number): number {
    return Math.round(Math.exp(Math.log(min) + this.next() * (Math.log(max) - Math.log(min))));
  }

  /** Lowercase hex of `length` characters. */
  hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.uint32().toString(16).padStart(8, "0");
    return out.slice(0, length);
  }

  /** `length` incompressible bytes: an AES-128-CTR key stream keyed from this stream (fast for megabytes). */
  bytes(length: number): Buffer {
    const key = Buffer.alloc(16);
    const iv = Buffer.alloc(16);
    for (let offset = 0; offset < 16; offset += 4) {
      key.writeUInt32LE(this.uint32(), offset);
      iv.writeUInt32LE(this.uint32(), offset);
    }
    return createCipheriv("aes-128-ctr", key, iv).update(Buffer.alloc(length));
  }
}
