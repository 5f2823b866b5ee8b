/**
 * The audit log's stored documents (lib/stored.ts): `auditLogs/{entryId}` and the chain's head
 * (`auditChain/head`).
 *
 * An entry has two readings. The log's pages read it as the answer's entry (`AUDIT_ENTRY`, as `repo.ts`
 * writes it); an entry that does not decode is left out of a page. The chain's check and its sealer read
 * what an entry holds whatever it holds (`AUDIT_LINK`: every field as stored, never refused): an entry
 * changed around the API must reach the check, which reports it as a broken link, rather than fail the
 * read.
 */
import { z } from "zod/mini";
import type { AuditEntry } from "@alpvault/contracts/audit";
import { auditEntrySchema } from "@alpvault/contracts/schemas/audit";
import { storedKind, storedKindWithId } from "../lib/stored";
import type { ChainHead, ChainLink } from "./chain";

/** `auditLogs/{entryId}` as a page of the log shows it. */
export const AUDIT_ENTRY = storedKindWithId<AuditEntry>("audit entry", "entryId", auditEntrySchema);

/** An entry with its seal as stored, and whether it is marked unsealed (`sealed: false`). */
export interface StoredLink extends ChainLink {
  sealed: unknown;
}

/** A field as stored, whatever it holds, or absent. */
const stored = z.optional(z.unknown());

/** `auditLogs/{entryId}` as the chain reads it: any document is a link (its fields checked by the walk). */
export const AUDIT_LINK = storedKindWithId<StoredLink>(
  "audit entry (as sealed)",
  "entryId",
  z.pipe(
    z.object({
      entryId: z.string(),
      date: stored,
      actor: stored,
      operation: stored,
      object: stored,
      failureReason: stored,
      seq: stored,
      prevHash: stored,
      hash: stored,
      sealed: stored,
    }),
    z.transform(
      ({ entryId, date, actor, operation, object, failureReason, seq, prevHash, hash, sealed }) => ({
        entryId,
        fields: { date, actor, operation, object, failureReason },
        seq,
        prevHash,
        hash,
        sealed,
      }),
    ),
  ),
);

/** The head as stored; `adoptedThrough` is set while entries written before the chain are taken in. */
export interface StoredHead extends ChainHead {
  adopting: boolean;
  adoptedThrough: { date?: unknown; entryId: string } | null;
}

/**
 * `auditChain/head`. An adoption cursor it cannot read is none: the adoption starts again from the oldest
 * entry (the entries it sealed already keep their seal).
 */
export const AUDIT_HEAD = storedKind<StoredHead>(
  "audit chain head",
  z.object({
    seq: z.number(),
    hash: z.string(),
    adopting: z._default(z.boolean(), false),
    adoptedThrough: z.catch(z.nullable(z.object({ date: stored, entryId: z.string() })), null),
  }),
);
