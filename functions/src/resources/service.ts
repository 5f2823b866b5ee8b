/**
 * Resources of an organisation: discovered from the Workspace directory (mailboxes, suspended ones shown as
 * such) and shared drives, listed with search, filters, sorting and paging, and summed up for the
 * resources screen (analytics and alerts).
 */
import type { ServiceId } from "@alpvault/contracts/services";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { appendAudit } from "../audit/service";
import {
  RESOURCE_SORT_FIELDS,
  resourceBackupBytes,
  type Alert,
  type AlertsResponse,
  type Resource,
  type ResourceDetail,
  type ResourceSortField,
  type ResourcesAnalytics,
  type ResourcesPage,
  type ResourcesQuery,
} from "@alpvault/contracts/organizations";
import { ACTIVITY_MESSAGES } from "@alpvault/contracts/activity";
import { isId } from "@alpvault/contracts/ids";
import { DomainError } from "../lib/errors";
import type { WorkspaceGateway } from "../workspace/gateway";
import * as repo from "./repo";
import * as totals from "./totals-repo";
import type { DiscoveredResource, Scope } from "./repo";
import { activeBackups } from "../backups/service";
import { recoveryTargets } from "../recovery/service";
import { reviewSeats } from "../billing/seats";

export const MAX_PAGE_SIZE = 100;
const ALERTS_SHOWN = 50;

/** Reads the directory and shared drives and applies them; records an alert when resources come or go. */
export async function syncResources(
  workspace: WorkspaceGateway,
  scope: Scope,
  adminEmail: string,
  now: Date = new Date(),
  actor: string = SYSTEM_ACTOR,
): Promise<{ added: number; removed: number }> {
  const [users, drives] = await Promise.all([
    workspace.listUsers(adminEmail),
    workspace.listSharedDrives(adminEmail),
  ]);
  const discovered: DiscoveredResource[] = [
    ...users.map((user) => ({
      resourceId: `user-${user.id}`,
      type: "email" as const,
      name: user.name,
      email: user.email,
      status: user.suspended ? ("suspended" as const) : ("active" as const),
    })),
    ...drives.map((drive) => ({
      resourceId: `drive-${drive.id}`,
      type: "shared_drive" as const,
      name: drive.name,
      email: null,
      status: "active" as const,
    })),
  ];
  const at = now.toISOString();
  const { mailboxes, ...result } = await repo.applySync(scope, discovered, at);
  const changes = [
    { kind: "resources-added", count: result.added, verb: "added" },
    { kind: "resources-removed", count: result.removed, verb: "removed" },
  ] as const;
  for (const { kind, count, verb } of changes) {
    if (count === 0) continue;
    const message = `${count} resource${count === 1 ? "" : "s"} ${verb}`;
    await repo.addAlert(scope, { createdAt: at, kind, message, read: false });
    // A sync writes in batches (any number of resources), so its entry follows the writes it records.
    await appendAudit(scope, {
      operation: kind === "resources-added" ? "resources.added" : "resources.removed",
      actor,
      object: message,
      date: now,
      key: `${kind}-${at}`,
    });
  }
  await reviewSeats(scope, mailboxes, now);
  return result;
}

export function backupBytes(resource: Resource): number {
  return resourceBackupBytes(resource);
}

/** Reads and checks the list query; anything malformed is a 400 naming the parameter. */
export function parseResourcesQuery(query: Record<string, unknown>): ResourcesQuery {
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw DomainError.invalid(`Query parameter '${name}' must be given once`);
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const value = single(name);
    if (value === undefined || value === "") return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw DomainError.invalid(`Query parameter '${name}' must be one of: ${allowed.join(", ")}`);
    }
    return value as T;
  };
  const positive = (name: string, fallback: number, max: number): number => {
    const value = single(name);
    if (value === undefined || value === "") return fallback;
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1 || number > max) {
      throw DomainError.invalid(`Query parameter '${name}' must be a whole number from 1 to ${max}`);
    }
    return number;
  };
  const search = single("search")?.trim();
  if (search !== undefined && search.length > 200) throw DomainError.invalid("The search text is too long");
  return {
    search: search || undefined,
    type: oneOf("type", ["email", "shared_drive"] as const),
    protection: oneOf("protection", ["protected", "unprotected"] as const),
    policyId: single("policyId") || undefined,
    sort: oneOf("sort", RESOURCE_SORT_FIELDS) ?? "name",
    direction: oneOf("direction", ["asc", "desc"] as const) ?? "asc",
    page: positive("page", 1, 100_000),
    pageSize: positive("pageSize", 25, MAX_PAGE_SIZE),
  };
}

/** Names sort as people read them: case and accents do not split the order. */
const COLLATOR = new Intl.Collator("en", { sensitivity: "base", numeric: true });

const SORT_KEYS: Record<ResourceSortField, (resource: Resource) => string | number> = {
  name: (resource) => resource.name,
  type: (resource) => resource.type,
  status: (resource) => resource.status,
  lastBackupAt: (resource) => resource.lastBackupAt ?? "",
  storage: backupBytes,
};

/** Filters, sorts and pages. Deleted resources stay listed (their backups are what customers keep). */
export function selectResources(resources: Resource[], query: ResourcesQuery): ResourcesPage {
  const search = query.search?.toLocaleLowerCase();
  const matching = resources.filter(
    (resource) =>
      (!search ||
        resource.name.toLocaleLowerCase().includes(search) ||
        (resource.email ?? "").toLowerCase().includes(search)) &&
      (!query.type || resource.type === query.type) &&
      (!query.protection || resource.protected === (query.protection === "protected")) &&
      (!query.policyId || resource.policyId === query.policyId),
  );
  const key = SORT_KEYS[query.sort ?? "name"];
  const sign = query.direction === "desc" ? -1 : 1;
  const compare = (left: string | number, right: string | number): number =>
    typeof left === "string" && typeof right === "string"
      ? COLLATOR.compare(left, right)
      : Number(left) - Number(right);
  // Ties keep a stable order whatever the direction: by name, then id.
  matching.sort(
    (a, b) =>
      compare(key(a), key(b)) * sign ||
      COLLATOR.compare(a.name, b.name) ||
      a.resourceId.localeCompare(b.resourceId),
  );
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 25;
  return {
    resources: matching.slice((page - 1) * pageSize, page * pageSize),
    total: matching.length,
    page,
    pageSize,
  };
}

/** The resources screen's figures: counts and sums by aggregation, no resource read. */
export async function analytics(scope: Scope): Promise<ResourcesAnalytics> {
  const [figures, usage] = await Promise.all([totals.figuresNotDeleted(scope), repo.usageCounts(scope)]);
  const total = figures.backupBytes;
  return {
    protectedResources: figures.protected,
    totalResources: figures.resources,
    totalBackupBytes: total,
    protectionStatus:
      figures.resources > 0 && figures.protected === figures.resources ? "compliant" : "unprotected",
    dataDynamics: {
      currentCycleBytes: total,
      lastCycleBytes: usage.lastCycleBytes,
      changePercent:
        usage.lastCycleBytes > 0
          ? Math.round(((total - usage.lastCycleBytes) / usage.lastCycleBytes) * 1000) / 10
          : null,
    },
    emails: usage.emails,
    files: usage.files,
  };
}

/** Backup bytes stored for the organisation (every resource, deleted ones included), by aggregation. */
export function storedBackupBytes(scope: Scope): Promise<number> {
  return totals.backupBytesTotal(scope);
}

/** Mailboxes active at Google (the seats a subscription counts), by aggregation. */
export function activeMailboxes(scope: Scope): Promise<number> {
  return totals.activeMailboxCount(scope);
}

export async function alerts(scope: Scope): Promise<AlertsResponse> {
  const [list, unread] = await Promise.all([
    repo.listAlerts(scope, ALERTS_SHOWN),
    repo.countUnreadAlerts(scope),
  ]);
  return { alerts: list, unread };
}

/** How old a directory sync may get before the scheduler runs it again. */
export const RESYNC_INTERVAL_MS = 6 * 3600 * 1000;

/**
 * Reads the organisation's users, groups and shared drives again when they were last read long ago: true
 * when it did (the dispatcher calls it for each organisation of its region).
 */
export async function resyncIfDue(
  workspace: WorkspaceGateway,
  organization: Scope & { adminEmail: string },
  now: Date,
): Promise<boolean> {
  const last = await repo.lastSyncAt(organization);
  if (last && now.getTime() - new Date(last).getTime() < RESYNC_INTERVAL_MS) return false;
  await syncResources(workspace, organization, organization.adminEmail, now);
  return true;
}

export async function listPage(scope: Scope, query: ResourcesQuery): Promise<ResourcesPage> {
  const [resources, active] = await Promise.all([
    repo.listResources(scope),
    recoveryTargets(scope).then((targets) => activeBackups(scope, { recoveryTargets: targets })),
  ]);
  const page = selectResources(resources, query);
  return {
    ...page,
    resources: page.resources.map((resource) => ({
      ...resource,
      activeBackup: active.get(resource.resourceId) ?? null,
    })),
  };
}

/** The organisation's resource of that id, or undefined (an id that is not one is never looked up). */
export async function resourceById(scope: Scope, resourceId: string): Promise<Resource | undefined> {
  return isId(resourceId) ? repo.readResourceDetail(scope, resourceId) : undefined;
}

/** GET …/resources/{resourceId}: the resource page's figures (404 for an id the organisation does not have). */
export async function resourceDetail(scope: Scope, resourceId: string): Promise<ResourceDetail> {
  const found = isId(resourceId) ? await repo.readResourceDetail(scope, resourceId) : undefined;
  if (!found) throw DomainError.notFound(ACTIVITY_MESSAGES.resourceNotFound);
  const active = await activeBackups(scope);
  return { ...found, activeBackup: active.get(resourceId) ?? null };
}

export async function markAllRead(scope: Scope): Promise<{ marked: number }> {
  return { marked: await repo.markAllAlertsRead(scope) };
}

/** The protected resources (a backup policy assigned), for the restore drills: id and display name. */
export async function protectedResources(scope: Scope): Promise<{ resourceId: string; name: string }[]> {
  return (await repo.listResources(scope))
    .filter((resource) => resource.protected)
    .map((resource) => ({ resourceId: resource.resourceId, name: resource.email ?? resource.name }))
    .sort((a, b) => a.resourceId.localeCompare(b.resourceId));
}

/** The resource a name or email names: its email, else its name (case and accents aside). */
export function resourceNamed(resources: Resource[], text: string): Resource | undefined {
  const wanted = text.trim().toLocaleLowerCase();
  const collator = new Intl.Collator("en", { sensitivity: "base" });
  return (
    resources.find((resource) => resource.email?.toLowerCase() === wanted) ??
    resources.find((resource) => collator.compare(resource.name, text.trim()) === 0)
  );
}

/**
 * Firestore indexes only a value's first 1,500 bytes ("Maximum size of an indexed field value", Firestore
 * quotas and limits): an equality on longer text cannot be trusted, so such text is compared on the list.
 */
const MAX_INDEXED_BYTES = 1_500;

/**
 * The resource a name or email names, as `resourceNamed` finds it, reading as little as it can: the
 * resources whose email is the text as typed or lower-cased, then those whose name is the text as typed;
 * every resource only when neither finds one (a name typed in another case, say).
 */
export async function findResourceByNameOrEmail(scope: Scope, text: string): Promise<Resource | undefined> {
  const typed = text.trim();
  if (Buffer.byteLength(typed) > MAX_INDEXED_BYTES)
    return resourceNamed(await repo.listResources(scope), typed);
  const byEmail = await repo.resourcesWhere(scope, "email", [...new Set([typed, typed.toLowerCase()])]);
  const found = resourceNamed(byEmail, typed);
  if (found) return found;
  const byName = resourceNamed(await repo.resourcesWhere(scope, "name", [typed]), typed);
  return byName ?? resourceNamed(await repo.listResources(scope), typed);
}

/** The organisation's protected storage per service now (the activity's storage over time). */
export function storageByService(scope: Scope): Promise<Record<ServiceId, number>> {
  return totals.storageByService(scope);
}

/** Every resource of the organisation, as stored. */
export function listResources(scope: Scope): Promise<Resource[]> {
  return repo.listResources(scope);
}

/** Raises (or replaces) the alert with this id. */
export function putAlert(scope: Scope, alertId: string, alert: Omit<Alert, "alertId">): Promise<void> {
  return repo.putAlert(scope, alertId, alert);
}
