/**
 * Every kind of stored document by where it lives, for tests that check what the repositories write: a
 * test runs writers against the in-memory Firestore (`memory-firestore.ts`), then `undecodedDocuments`
 * reads back every document there with its kind's schema and lists those that do not decode, or that
 * live where no kind is known. A document only ever asked whether it exists has no kind (`null`).
 */
import type { MemoryFirestore } from "./memory-firestore";
import type { StoredKind } from "../lib/stored";
import { AUDIT_ENTRY, AUDIT_HEAD, AUDIT_LINK } from "../audit/documents";
import {
  CATALOG_FOLDER,
  CATALOG_ITEM,
  CATALOG_ITEM_STATE,
  CATALOG_VERSION,
  CATALOG_VERSION_CHUNKS,
  CHUNK_ENTRY,
  MAIL_LABELS,
} from "../backups/catalog/documents";
import { isSealed } from "../backups/catalog/sealed-documents";
import { BACKUP_RUN, GC_LOCK } from "../backups/catalog/run-documents";
import { CATALOG_FORMAT, DAILY_ACTIVITY, DATA_KEY } from "../backups/documents";
import { VERIFY_RUN, VERIFY_STATE } from "../backups/verify/documents";
import { BILLING_CHARGE, PAYMENT, SANDBOX_CHECKOUT, SANDBOX_SUBSCRIPTION } from "../billing/documents";
import { DRILL_ITEM, DRILL_RUN, DRILL_SETTINGS } from "../drills/documents";
import { EXPORT, EXPORT_PROBLEM, EXPORT_TAIL } from "../export/documents";
import { DOMAIN_CLAIM, ORGANIZATION_ACCOUNT, ORGANIZATION_ROUTING } from "../organizations/documents";
import { POLICY } from "../policies/documents";
import { LEDGER_ENTRY, RECOVERY, RECOVERY_LOCK } from "../recovery/documents";
import { ALERT, RESOURCE, SYNC, USAGE } from "../resources/documents";
import { SECRET } from "../secrets/documents";
import { DISPATCHER_RUNS, GOOGLE_QUOTA_DAY } from "../system/documents";

type Kinds = readonly StoredKind<unknown>[] | null;

/**
 * A catalog document of either format: version 1 whole; version 2 (sealed, docs/backup-format.md §9.2) by
 * what it keeps in clear, since its sealed value opens only with the organisation's keys.
 */
function eitherFormat<T>(whole: StoredKind<T>, clear: StoredKind<unknown>): StoredKind<unknown> {
  return {
    name: whole.name,
    decode: (data, id, path) => (isSealed(data) ? clear : whole).decode(data, id, path),
  };
}

/** Under `organizations/{organizationId}/` of a region database: a path pattern (`*`: an id) and its kinds. */
const REGION_KINDS: [string, Kinds][] = [
  ["", [ORGANIZATION_ACCOUNT]],
  ["resources/*", [RESOURCE]],
  ["resources/*/items/*", [eitherFormat(CATALOG_ITEM, CATALOG_ITEM_STATE)]],
  ["resources/*/items/*/versions/*", [eitherFormat(CATALOG_VERSION, CATALOG_VERSION_CHUNKS)]],
  ["resources/*/folders/*", [CATALOG_FOLDER]],
  ["resources/*/backupState/mailLabels", [MAIL_LABELS]],
  ["chunkRefs/*", [CHUNK_ENTRY]],
  ["backupRuns/*", [BACKUP_RUN]],
  ["dataKeys/*", [DATA_KEY]],
  ["dailyActivity/*", [DAILY_ACTIVITY]],
  ["dailyActivity/*/runs/*", null],
  ["verifyRuns/*", [VERIFY_RUN]],
  ["meta/gc", [GC_LOCK]],
  ["meta/verify", [VERIFY_STATE]],
  ["meta/catalog", [CATALOG_FORMAT]],
  ["meta/usage", [USAGE]],
  ["meta/sync", [SYNC]],
  ["meta/drills", [DRILL_SETTINGS]],
  ["alerts/*", [ALERT]],
  ["policies/*", [POLICY]],
  ["secrets/*", [SECRET]],
  ["auditLogs/*", [AUDIT_ENTRY, AUDIT_LINK]],
  ["auditChain/head", [AUDIT_HEAD]],
  ["payments/*", [PAYMENT]],
  ["paymentEvents/*", null],
  ["billingCharges/*", [BILLING_CHARGE]],
  ["recoveries/*", [RECOVERY]],
  ["recoveries/*/ledger/*", [LEDGER_ENTRY]],
  ["recoveryLocks/*", [RECOVERY_LOCK]],
  ["exports/*", [EXPORT]],
  ["exports/*/problems/*", [EXPORT_PROBLEM]],
  ["exports/*/checkpoint/tail", [EXPORT_TAIL]],
  ["drillRuns/*", [DRILL_RUN]],
  ["drillRuns/*/items/*", [DRILL_ITEM]],
];

/** In the global database. */
const GLOBAL_KINDS: [string, Kinds][] = [
  ["organizations/*", [ORGANIZATION_ROUTING]],
  ["domains/*", [DOMAIN_CLAIM]],
  ["paymentCheckouts/*", [SANDBOX_CHECKOUT]],
  ["paymentSubscriptions/*", [SANDBOX_SUBSCRIPTION]],
  ["system/dispatcher", [DISPATCHER_RUNS]],
  ["system/health", null],
  ["googleQuotaDays/*", [GOOGLE_QUOTA_DAY]],
];

function matches(pattern: string, path: string): boolean {
  const expected = pattern === "" ? [] : pattern.split("/");
  const parts = path === "" ? [] : path.split("/");
  return (
    expected.length === parts.length && expected.every((part, index) => part === "*" || part === parts[index])
  );
}

/** The kinds of the document at `path` of a database (`(default)`: the global one); undefined: none known. */
export function kindsOf(databaseId: string, path: string): Kinds | undefined {
  if (databaseId === "(default)") return GLOBAL_KINDS.find(([pattern]) => matches(pattern, path))?.[1];
  const [collection, , ...rest] = path.split("/");
  if (collection !== "organizations") return undefined;
  return REGION_KINDS.find(([pattern]) => matches(pattern, rest.join("/")))?.[1];
}

/** The documents of `databases` that do not decode with their kinds, or whose kind is not known. */
export function undecodedDocuments(
  databases: ReadonlyMap<string, MemoryFirestore>,
): { database: string; path: string; kind: string; fields: string[] }[] {
  const out: { database: string; path: string; kind: string; fields: string[] }[] = [];
  for (const [database, firestore] of databases) {
    for (const [path, data] of firestore.documents) {
      const kinds = kindsOf(database, path);
      if (kinds === undefined) out.push({ database, path, kind: "(none known)", fields: [] });
      for (const kind of kinds ?? []) {
        const decoded = kind.decode(data, path.slice(path.lastIndexOf("/") + 1));
        if (!decoded.success) out.push({ database, path, kind: kind.name, fields: decoded.fields });
      }
    }
  }
  return out;
}
