/**
 * Writing and reading the audit log: appending an entry, running a change and the entries that record it
 * in one transaction, the date range and paging of the Audit Logs screen (checked as the browser does),
 * and the check of the log's hash chain.
 */
import {
  AUDIT_MAX_PAGE_SIZE,
  AUDIT_MESSAGES,
  AUDIT_PAGE_SIZE,
  validateAuditRange,
  type AuditChainBreak,
  type AuditChainVerification,
  type AuditPage,
} from "@alpvault/contracts/audit";
import { DomainError } from "../lib/errors";
import type { Scope, Transaction } from "../lib/tenancy";
import { breakAt, ChainWalk } from "./chain";
import {
  appendAudit as appendAuditEntry,
  auditChainPages,
  auditedTransaction,
  entryBeyondHead,
  firstUnsealedEntry,
  listAudit,
  readAuditHead,
  recordAudit,
  sealAuditSafely,
  type AuditRecord,
} from "./repo";

function wholeNumber(value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || number < 1) throw DomainError.invalid(AUDIT_MESSAGES.invalidPage);
  return Math.min(number, max);
}

/** The day after `day` (YYYY-MM-DD), as the exclusive end of a range of whole days. */
function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

/**
 * One page of the log for `?start=YYYY-MM-DD&end=YYYY-MM-DD&page=N&pageSize=N`: both dates required,
 * start not after end (docs/requirements.md#validation, same texts as the browser), whole days in UTC, newest first.
 */
export async function auditPage(scope: Scope, query: Record<string, unknown>): Promise<AuditPage> {
  const start = typeof query.start === "string" ? query.start : undefined;
  const end = typeof query.end === "string" ? query.end : undefined;
  const errors = validateAuditRange(start, end);
  const first = errors.start ?? errors.end;
  if (first) throw DomainError.invalid(first);
  const page = wholeNumber(query.page, 1, Number.MAX_SAFE_INTEGER);
  const pageSize = wholeNumber(query.pageSize, AUDIT_PAGE_SIZE, AUDIT_MAX_PAGE_SIZE);
  const range = { from: `${start as string}T00:00:00.000Z`, to: dayAfter(end as string) };
  return listAudit(scope, range, page, pageSize);
}

/**
 * How long an entry may wait for its seal before a check reports it: sealing follows every write at once,
 * so only an entry whose seal failed (and that no later seal took) or one written around the API is older.
 */
export const SEAL_GRACE_MS = 5 * 60_000;

/**
 * Checks the whole chain: seals what is waiting, walks the sealed entries by seq page by page (each hash
 * recomputed, each link and seq checked, the last one against the head), then looks for entries sealed
 * beyond the head and for entries left unsealed. Stops at the first break.
 */
export async function verifyAudit(
  scope: Scope,
  now: () => Date = () => new Date(),
): Promise<AuditChainVerification> {
  await sealAuditSafely(scope);
  const head = await readAuditHead(scope);
  const walk = new ChainWalk();
  let broken: AuditChainBreak | undefined;
  walking: for await (const page of auditChainPages(scope, head?.seq ?? 0)) {
    for (const link of page) {
      broken = walk.next(link);
      if (broken) break walking;
    }
  }
  broken ??= walk.end(head);
  if (!broken) {
    const beyond = await entryBeyondHead(scope);
    if (beyond) {
      broken = breakAt(
        "link-broken",
        "The entry is sealed beyond the last entry of the log.",
        typeof beyond.seq === "number" ? beyond.seq : null,
        beyond,
      );
    }
  }
  if (!broken) {
    const unsealed = await firstUnsealedEntry(scope, new Date(now().getTime() - SEAL_GRACE_MS));
    if (unsealed) {
      broken = breakAt("not-sealed", "The entry was never sealed into the log.", null, unsealed);
    }
  }
  return {
    intact: !broken,
    entries: walk.verified,
    head,
    verifiedAt: now().toISOString(),
    firstBroken: broken ?? null,
  };
}

/** Appends an entry to the organisation's audit log (once per `key`, when it has one). */
export function appendAudit(scope: Scope, record: AuditRecord): Promise<void> {
  return appendAuditEntry(scope, record);
}

export type { AuditRecord };

/** Records one entry in the transaction of the change it records. */
export type RecordAudit = (record: AuditRecord) => void;

/**
 * Runs `change` in one transaction of the organisation's region database with the audit entries it
 * records (`audit`), then seals them: the change and its entries commit together or not at all. The
 * owning modules' repositories make the change through `transaction` (reads first, as Firestore requires).
 */
export function auditedChange<T>(
  scope: Scope,
  change: (transaction: Transaction, audit: RecordAudit) => Promise<T>,
): Promise<T> {
  return auditedTransaction(scope, (transaction) =>
    change(transaction, (record) => recordAudit(transaction, scope, record)),
  );
}
