/**
 * The audit log of one organisation: `organizations/{id}/auditLogs` in its region database. Append-only:
 * entries are created (never set or deleted) and no route edits them. A change and the entry that records
 * it are written in the same transaction (`recordAudit`, inside `auditedTransaction`); events that change
 * nothing else (a login, a search, a failure) are appended on their own (`appendAudit`).
 *
 * Entries are written unsealed (`sealed: false`) and then sealed into a hash chain (`chain.ts`) by
 * `sealAudit`: one transaction over the chain's head (`organizations/{id}/auditChain/head`, `{seq, hash}`)
 * takes the oldest unsealed entries (by date, then id) and gives each `seq`, `prevHash`, `hash` and
 * `sealed: true` — the only change an entry ever sees. Sealing runs right after every append or audited
 * transaction and before every check, is idempotent, and two sealers never give out one seq twice: both
 * read the head in their transaction, so one of them waits or retries.
 */
import {
  FieldPath,
  type Query,
  type QueryDocumentSnapshot,
  type Transaction,
} from "firebase-admin/firestore";
import type { AuditOperation, AuditPage } from "@alpvault/contracts/audit";
import { auditSealFailed } from "../logs";
import { decodeDocument, decodeQueried, readableDocuments } from "../lib/stored";
import { organizationRef, tenantDb, type Scope } from "../lib/tenancy";
import { GENESIS_HASH, sealAfter, type ChainHead, type ChainLink } from "./chain";
import { AUDIT_ENTRY, AUDIT_HEAD, AUDIT_LINK } from "./documents";

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
    sealed: false,
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

/**
 * Runs `body` in a transaction of the organisation's region database, then seals the entries it recorded
 * (`recordAudit`). Every transaction that records an audit entry runs through here.
 */
export async function auditedTransaction<T>(
  scope: Scope,
  body: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const result = await tenantDb(scope).runTransaction(body);
  await sealAuditSafely(scope);
  return result;
}

/** Appends one entry outside any other change. A keyed entry that exists already is left as it is. */
export async function appendAudit(scope: Scope, record: AuditRecord): Promise<void> {
  try {
    await entryRef(scope, record).create(entryData(record));
  } catch (error) {
    if (record.key && (error as { code?: unknown }).code === 6) return; // ALREADY_EXISTS
    throw error;
  }
  await sealAuditSafely(scope);
}

function headRef(scope: Scope) {
  return organizationRef(scope).collection("auditChain").doc("head");
}

/** Entries sealed per transaction (each is one write; a transaction takes at most 500). */
const SEAL_BATCH = 100;
/** Transactions per `sealAudit` call; whatever is left is sealed by the next call. */
const SEAL_ROUNDS = 50;

/**
 * Seals one batch. A chain without a head first adopts every entry already in the log (those written
 * before the chain existed carry no `sealed` field), sweeping by date then id with its cursor in the head;
 * after that only entries marked `sealed: false` are taken, so an entry someone writes around the API
 * without that mark stays unsealed and is reported. Returns whether a full batch was read (more may wait).
 */
async function sealBatch(scope: Scope): Promise<boolean> {
  const logs = auditLogs(scope);
  return tenantDb(scope).runTransaction(async (transaction) => {
    const head = decodeDocument(AUDIT_HEAD, await transaction.get(headRef(scope))) ?? null;
    const adopting = head === null || head.adopting;
    let query: Query = adopting
      ? logs.orderBy("date").orderBy(FieldPath.documentId())
      : logs.where("sealed", "==", false).orderBy("date").orderBy(FieldPath.documentId());
    if (adopting && head?.adoptedThrough) {
      query = query.startAfter(head.adoptedThrough.date, head.adoptedThrough.entryId);
    }
    const docs = (await transaction.get(query.limit(SEAL_BATCH))).docs;
    const full = docs.length === SEAL_BATCH;
    const links = docs.map((doc) => ({ doc, link: decodeQueried(AUDIT_LINK, doc) }));
    const unsealed = links.filter(({ link }) => typeof link.seq !== "number");
    if (!adopting && unsealed.length === 0) return false;
    const sealed = sealAfter(
      head,
      unsealed.map(({ link }) => link),
    );
    unsealed.forEach(({ doc }, index) => {
      const seal = sealed.seals[index];
      if (seal)
        transaction.update(doc.ref, {
          sealed: true,
          seq: seal.seq,
          prevHash: seal.prevHash,
          hash: seal.hash,
        });
    });
    const last = links[links.length - 1]?.link;
    const stillAdopting = adopting && full;
    transaction.set(headRef(scope), {
      seq: sealed.head?.seq ?? 0,
      hash: sealed.head?.hash ?? head?.hash ?? GENESIS_HASH,
      adopting: stillAdopting,
      adoptedThrough: stillAdopting && last ? { date: last.fields.date, entryId: last.entryId } : null,
      updatedAt: new Date().toISOString(),
    });
    return full;
  });
}

/** Seals every unsealed entry (up to SEAL_ROUNDS batches). */
export async function sealAudit(scope: Scope): Promise<void> {
  for (let round = 0; round < SEAL_ROUNDS; round += 1) {
    if (!(await sealBatch(scope))) return;
  }
}

/** `sealAudit`, best effort: the entry is written either way and the next seal (or check) takes it. */
export async function sealAuditSafely(scope: Scope): Promise<void> {
  try {
    await sealAudit(scope);
  } catch (error) {
    auditSealFailed({ organizationId: scope.organizationId, error });
  }
}

/** The chain's head, or null before the first seal. */
export async function readAuditHead(scope: Scope): Promise<ChainHead | null> {
  const head = decodeDocument(AUDIT_HEAD, await headRef(scope).get());
  return head ? { seq: head.seq, hash: head.hash } : null;
}

/** An entry as the chain reads it (whatever it holds: the walk checks it). */
function linkOf(doc: QueryDocumentSnapshot): ChainLink {
  const { sealed: _sealed, ...link } = decodeQueried(AUDIT_LINK, doc);
  return link;
}

/**
 * Sealed entries with seq up to `throughSeq`, in seq order (ties by id), one page at a time, so a log of
 * any length is walked without holding it in memory.
 */
export async function* auditChainPages(
  scope: Scope,
  throughSeq: number,
  pageSize = 500,
): AsyncGenerator<ChainLink[]> {
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    let query = auditLogs(scope).where("seq", "<=", throughSeq).orderBy("seq").limit(pageSize);
    if (after) query = query.startAfter(after);
    const { docs } = await query.get();
    if (docs.length > 0) yield docs.map(linkOf);
    if (docs.length < pageSize) return;
    after = docs[docs.length - 1];
  }
}

/**
 * The first entry sealed beyond the head (no sealer ever writes one), read with the head in one
 * transaction so a seal running meanwhile cannot make one appear.
 */
export async function entryBeyondHead(scope: Scope): Promise<ChainLink | undefined> {
  return tenantDb(scope).runTransaction(async (transaction) => {
    const head = decodeDocument(AUDIT_HEAD, await transaction.get(headRef(scope)));
    const query = auditLogs(scope)
      .where("seq", ">", head?.seq ?? 0)
      .orderBy("seq")
      .limit(1);
    const [doc] = (await transaction.get(query)).docs;
    return doc && linkOf(doc);
  });
}

/**
 * Entries without a seal written before `writtenBefore`: those marked unsealed, and — only when counts say
 * there are any — those with neither seal nor mark (found by reading the log in id order). Returns the
 * earliest by date.
 */
export async function firstUnsealedEntry(scope: Scope, writtenBefore: Date): Promise<ChainLink | undefined> {
  const logs = auditLogs(scope);
  let first: ChainLink | undefined;
  const consider = (doc: QueryDocumentSnapshot) => {
    const { sealed, ...link } = decodeQueried(AUDIT_LINK, doc);
    if (typeof link.seq === "number") return;
    if (sealed === false && doc.createTime.toDate() >= writtenBefore) return;
    if (!first || String(link.fields.date) < String(first.fields.date)) first = link;
  };
  const [all, sealed, marked] = await Promise.all([
    logs.count().get(),
    logs.where("seq", ">=", 1).count().get(),
    logs.where("sealed", "==", false).count().get(),
  ]);
  const unmarked = all.data().count - sealed.data().count - marked.data().count;
  const scan = unmarked > 0 ? logs.orderBy(FieldPath.documentId()) : logs.where("sealed", "==", false);
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    let query = scan.limit(500);
    if (after) query = query.startAfter(after);
    const { docs } = await query.get();
    docs.forEach(consider);
    if (docs.length < 500) return first;
    after = docs[docs.length - 1];
  }
}

/**
 * One page of entries, newest first, whose date lies in [from, to) — both ISO date-times. The total comes
 * from a count aggregation, so paging never reads the whole log. An entry that does not decode (changed
 * around the API: the chain's check reports it) is left out of the page, logged.
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
    entries: readableDocuments(AUDIT_ENTRY, snapshot.docs),
    page,
    pageSize,
    totalEntries,
    totalPages: Math.max(1, Math.ceil(totalEntries / pageSize)),
  };
}
