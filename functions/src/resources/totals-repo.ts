/**
 * The organisation's resource totals by aggregation queries (`count()` and `sum()` over the resources'
 * indexes: Firestore bills one read per 1,000 index entries, and no resource document is read), for the
 * resources screen's analytics, the storage check before a backup and the subscription's usage.
 *
 * A resource counts as deleted only with `status == "deleted"` (a missing or unknown status reads as
 * active, as `decodeResource` says), so the figures of the resources not deleted are those of all minus
 * those of the deleted ones: equality filters only. The composite indexes these queries need are in
 * `firestore.indexes.json` (`resources`: protected + status, status + each byte field, type + status).
 */
import { AggregateField, type Query } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../lib/tenancy";
import { SERVICE_BACKUP_BYTES_FIELDS } from "@alpvault/contracts/organizations";
import { SERVICE_IDS, type ServiceId } from "@alpvault/contracts/services";

function resources(scope: Scope): Query {
  return organizationRef(scope).collection("resources");
}

async function countOf(query: Query): Promise<number> {
  return (await query.count().get()).data().count;
}

async function sumOf(query: Query, field: string): Promise<number> {
  const total = (await query.aggregate({ total: AggregateField.sum(field) }).get()).data().total;
  return Number.isFinite(total) ? total : 0;
}

/** Backup bytes of the resources the query selects (every service's). */
async function bytesOf(query: Query): Promise<number> {
  const sums = await Promise.all(
    Object.values(SERVICE_BACKUP_BYTES_FIELDS).map((field) => sumOf(query, field)),
  );
  return sums.reduce((total, bytes) => total + bytes, 0);
}

export interface ResourceFigures {
  resources: number;
  protected: number;
  backupBytes: number;
}

async function figuresOf(query: Query): Promise<ResourceFigures> {
  const [all, protectedCount, backupBytes] = await Promise.all([
    countOf(query),
    countOf(query.where("protected", "==", true)),
    bytesOf(query),
  ]);
  return { resources: all, protected: protectedCount, backupBytes };
}

/** Resources, protected resources and their backup bytes, deleted resources left out. */
export async function figuresNotDeleted(scope: Scope): Promise<ResourceFigures> {
  const [all, deleted] = await Promise.all([
    figuresOf(resources(scope)),
    figuresOf(resources(scope).where("status", "==", "deleted")),
  ]);
  return {
    resources: all.resources - deleted.resources,
    protected: all.protected - deleted.protected,
    backupBytes: all.backupBytes - deleted.backupBytes,
  };
}

/** Backup bytes of every resource, deleted ones included (their backups are kept and stored). */
export function backupBytesTotal(scope: Scope): Promise<number> {
  return bytesOf(resources(scope));
}

/** Mailboxes active at Google (neither suspended nor deleted). */
export async function activeMailboxCount(scope: Scope): Promise<number> {
  const mailboxes = resources(scope).where("type", "==", "email");
  const [all, inactive] = await Promise.all([
    countOf(mailboxes),
    countOf(mailboxes.where("status", "in", ["suspended", "deleted"])),
  ]);
  return all - inactive;
}

/** Backed-up bytes per service of every resource (deleted ones too), by each service's resource field. */
export async function storageByService(scope: Scope): Promise<Record<ServiceId, number>> {
  const sums = Object.fromEntries(
    SERVICE_IDS.map((service) => [service, AggregateField.sum(SERVICE_BACKUP_BYTES_FIELDS[service])]),
  ) as Record<ServiceId, AggregateField<number>>;
  const totals = (await resources(scope).aggregate(sums).get()).data();
  const finite = (value: number) => (Number.isFinite(value) ? value : 0);
  return Object.fromEntries(SERVICE_IDS.map((service) => [service, finite(totals[service])])) as Record<
    ServiceId,
    number
  >;
}
