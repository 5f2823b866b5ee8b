/**
 * The audit log of one organisation: `organizations/{id}/auditLogs` in its region database. Append-only:
 * entries are created (never set, updated or deleted) and no route edits them. A change and the entry
 * that records it are written in the same transaction (`recordAudit`); events that change nothing else
 * (a login, a search, a failure) are appended on their own (`appendAudit`).
 */
import type { Transaction } from "firebase-admin/firestore";
import {
  isAuditOperation,
  type AuditEntry,
  type AuditOperation,
  type AuditPage,
} from "@alpvault/contracts/audit";
import { organizationRef, type Scope } from "../lib/tenancy";

export interface AuditRecord {
  operation: AuditOperation;
  actor: string;
  object: string;
  failureReason?: string | null;
  /** Defaults to now. */
  date?: Date;
  /**
   * Makes the entry idempotent: a second record with the same key is not written (a retried request
   * or a duplicate task delivery records its operation once). Without a key every record is a new entry.
   */
  key?: string;
}

function auditLogs(scope: Scope) {
  return organizationRef(scope).collection("auditLogs");
}

function entryData(record: AuditRecord) {
  return {
    date: (record.date ?? new Date()).toISOString(),
    actor: record.actor,
    operation: record.operation,
    object: record.object,
    failureReason: record.failureReason ?? null,
  };
}

function entryRef(scope: Scope, record: AuditRecord) {
  return record.key ? auditLogs(scope).doc(record.key) : auditLogs(scope).doc();
}

/**
 * Adds the entry to `transaction` (in the organisation's region database, like the change it records).
 * With a `key`, the caller must have read nothing conflicting: `create` fails the transaction if the key
 * exists, so keyed records belong in `appendAudit` unless the caller checked with `transaction.get`.
 */
export function recordAudit(transaction: Transaction, scope: Scope, record: AuditRecord): void {
  transaction.create(entryRef(scope, record), entryData(record));
}

/** Appends one entry outside any other change. A keyed entry that exists already is left as it is. */
export async function appendAudit(scope: Scope, record: AuditRecord): Promise<void> {
  try {
    await entryRef(scope, record).create(entryData(record));
  } catch (error) {
    if (record.key && (error as { code?: unknown }).code === 6) return; // ALREADY_EXISTS
    throw error;
  }
}

function decodeEntry(id: string, data: Record<string, unknown>): AuditEntry | undefined {
  if (typeof data.date !== "string" || !isAuditOperation(data.operation)) return undefined;
  return {
    entryId: id,
    date: data.date,
    actor: typeof data.actor === "string" ? data.actor : "",
    operation: data.operation,
    object: typeof data.object === "string" ? data.object : "",
    failureReason: typeof data.failureReason === "string" ? data.failureReason : null,
  };
}

/**
 * One page of entries, newest first, whose date lies in [from, to) — both ISO date-times. The total comes
 * from a count aggregation, so paging never reads the whole log.
 */
export async function listAudit(
  scope: Scope,
  range: { from: string; to: string },
  page: number,
  pageSize: number,
): Promise<AuditPage> {
  const query = auditLogs(scope).where("date", ">=", range.from).where("date", "<", range.to);
  const [count, snapshot] = await Promise.all([
    query.count().get(),
    query
      .orderBy("date", "desc")
      .offset((page - 1) * pageSize)
      .limit(pageSize)
      .get(),
  ]);
  const totalEntries = count.data().count;
  return {
    entries: snapshot.docs.flatMap((doc) => decodeEntry(doc.id, doc.data()) ?? []),
    page,
    pageSize,
    totalEntries,
    totalPages: Math.max(1, Math.ceil(totalEntries / pageSize)),
  };
}
