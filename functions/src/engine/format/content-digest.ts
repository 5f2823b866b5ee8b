/**
 * A version's `contentDigest` (docs/backup-format.md §4): HMAC-SHA256 under the data key's `name` key of
 * the whole content, as 64 hex characters. Equal content under one data key ⇔ equal digest; the bucket and
 * the catalog never hold a plaintext hash.
 */
import { createHmac } from "node:crypto";
import type { DerivedKeys } from "./keys";

export function contentDigest(keys: DerivedKeys, content: Uint8Array): string {
  return createHmac("sha256", keys.name).update(content).digest("hex");
}

/** The same digest over content that arrives in pieces (a stream being chunked). */
export interface ContentDigester {
  update(piece: Uint8Array): void;
  /** The digest of everything given; call once. */
  digest(): string;
}

export function createContentDigester(keys: DerivedKeys): ContentDigester {
  const hmac = createHmac("sha256", keys.name);
  return {
    update: (piece) => void hmac.update(piece),
    digest: () => hmac.digest("hex"),
  };
}
