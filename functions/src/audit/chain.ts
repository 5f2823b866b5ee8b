/**
 * The audit log's hash chain, without Firestore: how a sealed entry's hash is computed, and a walk that
 * checks entries in sequence order one at a time (so a log of any length is checked page by page).
 *
 * Entry n carries `seq = n` (from 1), `prevHash` = the hash of entry n - 1 (`GENESIS_HASH` for entry 1)
 * and `hash = sha256(prevHash || canonical JSON of {entryId, date, actor, operation, object,
 * failureReason, seq})`. Changing, removing or reordering a sealed entry changes a hash the next entry
 * (or the chain's head) holds.
 */
import { createHash } from "node:crypto";
import {
  isAuditOperation,
  type AuditChainBreak,
  type AuditChainBreakReason,
} from "@alpvault/contracts/audit";

/** The previous hash of the first entry. */
export const GENESIS_HASH = "0".repeat(64);

/** An entry's fields as stored, before any check (a tampered entry may hold anything). */
export interface StoredFields {
  date: unknown;
  actor: unknown;
  operation: unknown;
  object: unknown;
  failureReason: unknown;
}

/** An entry with its seal as stored. */
export interface ChainLink {
  entryId: string;
  fields: StoredFields;
  seq: unknown;
  prevHash: unknown;
  hash: unknown;
}

export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * JSON with object keys sorted at every level and absent (undefined) fields left out, so the same values
 * always give the same text whatever order Firestore returns fields in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(",")}}`;
}

/** The hash that seals an entry as entry `seq` after the entry whose hash is `prevHash`. */
export function entryHash(prevHash: string, entryId: string, fields: StoredFields, seq: number): string {
  const sealed = {
    entryId,
    date: fields.date,
    actor: fields.actor,
    operation: fields.operation,
    object: fields.object,
    failureReason: fields.failureReason,
    seq,
  };
  return createHash("sha256").update(prevHash).update(canonicalJson(sealed)).digest("hex");
}

/** Seals `entries` (in this order) after `head`; returns each entry's seal and the new head. */
export function sealAfter(
  head: ChainHead | null,
  entries: { entryId: string; fields: StoredFields }[],
): { seals: { entryId: string; seq: number; prevHash: string; hash: string }[]; head: ChainHead | null } {
  let seq = head?.seq ?? 0;
  let prevHash = head?.hash ?? GENESIS_HASH;
  const seals = entries.map(({ entryId, fields }) => {
    seq += 1;
    const hash = entryHash(prevHash, entryId, fields, seq);
    const seal = { entryId, seq, prevHash, hash };
    prevHash = hash;
    return seal;
  });
  return { seals, head: seals.length === 0 ? head : { seq, hash: prevHash } };
}

/** A break at a stored entry (or at none), with the words for it. */
export function breakAt(
  reason: AuditChainBreakReason,
  message: string,
  seq: number | null,
  entry?: { entryId: string; fields: StoredFields },
): AuditChainBreak {
  const date = entry?.fields.date;
  const operation = entry?.fields.operation;
  return {
    reason,
    message,
    entryId: entry?.entryId ?? null,
    seq,
    date: typeof date === "string" ? date : null,
    operation: isAuditOperation(operation) ? operation : null,
  };
}

/**
 * Checks sealed entries fed in sequence order (ties by entry id), stopping at the first break. `end` then
 * checks that the last entry is the head's.
 */
export class ChainWalk {
  private expected = 1;
  private prevHash = GENESIS_HASH;
  private previous: ChainLink | undefined;
  /** Entries checked and found sound. */
  verified = 0;

  /** The break this entry makes, or undefined when it follows the chain. */
  next(link: ChainLink): AuditChainBreak | undefined {
    const { seq } = link;
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
      return breakAt("link-broken", "The entry's sequence number is not valid.", null, link);
    }
    if (seq < this.expected) {
      return breakAt(
        "link-broken",
        `Entry ${seq} appears twice: entry ids ${this.previous?.entryId ?? "?"} and ${link.entryId} hold it.`,
        seq,
        link,
      );
    }
    if (seq > this.expected) {
      const missing =
        seq - 1 === this.expected
          ? `Entry ${this.expected} is`
          : `Entries ${this.expected} to ${seq - 1} are`;
      return breakAt("entry-missing", `${missing} missing before entry ${seq}.`, this.expected, link);
    }
    if (link.prevHash !== this.prevHash) {
      return breakAt(
        "link-broken",
        seq === 1
          ? "The first entry does not start the chain."
          : `The entry does not hold the hash of entry ${seq - 1}.`,
        seq,
        link,
      );
    }
    if (
      typeof link.hash !== "string" ||
      link.hash !== entryHash(this.prevHash, link.entryId, link.fields, seq)
    ) {
      return breakAt("content-changed", "The entry was changed after it was sealed.", seq, link);
    }
    this.verified += 1;
    this.expected += 1;
    this.prevHash = link.hash;
    this.previous = link;
    return undefined;
  }

  /** After the last entry: the break when the walk did not end at `head`. */
  end(head: ChainHead | null): AuditChainBreak | undefined {
    const last = this.expected - 1;
    const headSeq = head?.seq ?? 0;
    if (last < headSeq) {
      const missing = headSeq === last + 1 ? `Entry ${headSeq} is` : `Entries ${last + 1} to ${headSeq} are`;
      return breakAt("entry-missing", `${missing} missing at the end of the log.`, last + 1);
    }
    if (head && head.hash !== this.prevHash) {
      return breakAt(
        "link-broken",
        `The log's head does not hold the hash of entry ${headSeq}.`,
        headSeq,
        this.previous,
      );
    }
    return undefined;
  }
}
