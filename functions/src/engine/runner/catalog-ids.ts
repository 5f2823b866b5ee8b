/**
 * Catalog document ids (docs/backup-format.md §5): an item key or version id made only of
 * `[A-Za-z0-9_.@:+=~-]` (at most 400 characters, not ".", ".." or "__…__") is its own document id; any
 * other (a "/" in it, say) becomes "%" + its SHA-256 in hex, which no plain id can be. Every repository
 * that reads catalog documents names them through this one function.
 */
import { createHash } from "node:crypto";

const PLAIN_ID = /^[A-Za-z0-9_.@:+=~-]{1,400}$/;
const RESERVED_ID = /^(\.|\.\.|__.*__)$/;

/** The document id of an item key or version id. */
export function catalogDocId(key: string): string {
  if (PLAIN_ID.test(key) && !RESERVED_ID.test(key)) return key;
  return `%${createHash("sha256").update(key, "utf8").digest("hex")}`;
}
