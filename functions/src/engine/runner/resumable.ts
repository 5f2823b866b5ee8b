/**
 * Hashes whose state survives a task: a large item backed up across several task deliveries keeps, with
 * its chunks so far, the state of its content digest and of its md5 check at the last chunk boundary, and
 * the next delivery goes on from there (hash-wasm's SHA-256 and MD5 save and load their state; Node's
 * crypto cannot). The content digest is HMAC-SHA256 under the name key (docs/backup-format.md §4), built
 * from the inner and outer SHA-256 so its inner state can be kept; it equals `createContentDigester`'s.
 */
import { createMD5, createSHA256, type IHasher } from "hash-wasm";
import type { DerivedKeys } from "../format/keys";

const BLOCK = 64;

function pads(key: Uint8Array): { inner: Uint8Array; outer: Uint8Array } {
  if (key.length > BLOCK) throw new RangeError("The name key is longer than SHA-256's block");
  const inner = new Uint8Array(BLOCK).fill(0x36);
  const outer = new Uint8Array(BLOCK).fill(0x5c);
  key.forEach((byte, index) => {
    inner[index] = byte ^ 0x36;
    outer[index] = byte ^ 0x5c;
  });
  return { inner, outer };
}

export interface ResumableHash {
  update(piece: Uint8Array): void;
  /** The state after everything given so far (base64), to go on with in another process. */
  save(): string;
  /** The hash (hex) of everything given; call once. */
  digest(): Promise<string>;
}

/** The content digest of a version, resumable: fresh, or from a `save()`d state. */
export async function resumableContentDigest(keys: DerivedKeys, state?: string): Promise<ResumableHash> {
  const { inner, outer } = pads(keys.name);
  const hasher: IHasher = await createSHA256();
  hasher.init();
  if (state) hasher.load(Buffer.from(state, "base64"));
  else hasher.update(inner);
  return {
    update: (piece) => void hasher.update(piece),
    save: () => Buffer.from(hasher.save()).toString("base64"),
    digest: async () => {
      const innerDigest = hasher.digest("binary");
      const outerHasher = await createSHA256();
      outerHasher.init();
      outerHasher.update(outer);
      outerHasher.update(innerDigest);
      return outerHasher.digest("hex");
    },
  };
}

/** MD5 (what Drive gives of a file's head revision), resumable. */
export async function resumableMd5(state?: string): Promise<ResumableHash> {
  const hasher = await createMD5();
  hasher.init();
  if (state) hasher.load(Buffer.from(state, "base64"));
  return {
    update: (piece) => void hasher.update(piece),
    save: () => Buffer.from(hasher.save()).toString("base64"),
    digest: async () => hasher.digest("hex"),
  };
}
