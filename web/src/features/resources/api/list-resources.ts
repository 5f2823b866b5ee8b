import type { Resource, ResourcesPage, ResourcesQuery } from "@alpvault/contracts/organizations";
import {
  BACKED_UP_SERVICES,
  BACKUP_FAILURE_REASONS,
  type ActiveBackup,
  type BackupFailureReason,
} from "@alpvault/contracts/backups";
import { decodeResourceIntegrity } from "@alpvault/contracts/integrity";
import { asFields, isString, isNullableString, isCount, unexpectedAnswer } from "@/lib/decode";
import { api } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

const TYPES = ["email", "shared_drive"] as const;
const STATUSES = ["active", "suspended", "deleted"] as const;

/** The backup in progress of a resource (null when none). */
function decodeActiveBackup(value: unknown): ActiveBackup | null | undefined {
  if (value === null) return null;
  const b = asFields(value);
  if (
    isString(b.runId) &&
    (b.state === "pending" || b.state === "running") &&
    isCount(b.items) &&
    isCount(b.bytes) &&
    isNullableString(b.startedAt)
  ) {
    return { runId: b.runId, state: b.state, items: b.items, bytes: b.bytes, startedAt: b.startedAt };
  }
  return undefined;
}

const isFailureReason = (value: unknown): value is BackupFailureReason | null =>
  value === null || (isString(value) && value in BACKUP_FAILURE_REASONS);

/** Each service's status (a service that is absent was never backed up); undefined when malformed. */
function decodeServices(value: unknown): Resource["services"] | undefined {
  if (value === undefined) return {};
  const fields = asFields(value);
  const out: Resource["services"] = {};
  for (const service of BACKED_UP_SERVICES) {
    if (fields[service] === undefined) continue;
    const s = asFields(fields[service]);
    const skipped = asFields(s.skipped);
    const notes = s.notes === undefined ? {} : asFields(s.notes);
    if (
      !(s.state === "succeeded" || s.state === "failed" || s.state === "unavailable") ||
      !isFailureReason(s.failureReason) ||
      !isNullableString(s.detail) ||
      !isString(s.at) ||
      !Object.values(skipped).every(isCount) ||
      !Object.values(notes).every(isCount)
    ) {
      return undefined;
    }
    out[service] = {
      state: s.state,
      failureReason: s.failureReason,
      detail: s.detail,
      skipped: skipped as Record<string, number>,
      notes: notes as Record<string, number>,
      at: s.at,
    };
  }
  return out;
}

/** Decodes one resource of the answer (spec §3); anything else is an unexpected answer. */
export function decodeResource(value: unknown): Resource {
  const r = asFields(value);
  if (
    isString(r.resourceId) &&
    (TYPES as readonly unknown[]).includes(r.type) &&
    isString(r.name) &&
    isNullableString(r.email) &&
    (STATUSES as readonly unknown[]).includes(r.status) &&
    isNullableString(r.policyId) &&
    isNullableString(r.policyName) &&
    typeof r.protected === "boolean" &&
    isNullableString(r.lastBackupAt) &&
    isNullableString(r.nextBackupAt) &&
    isCount(r.mailBackupBytes) &&
    isCount(r.driveBackupBytes) &&
    decodeActiveBackup(r.activeBackup) !== undefined &&
    isFailureReason(r.lastBackupFailure) &&
    decodeServices(r.services) !== undefined &&
    isNullableString(r.lastVerifiedAt) &&
    decodeResourceIntegrity(r.integrity) !== undefined
  ) {
    return {
      resourceId: r.resourceId,
      type: r.type as Resource["type"],
      name: r.name,
      email: r.email,
      status: r.status as Resource["status"],
      policyId: r.policyId,
      policyName: r.policyName,
      protected: r.protected,
      lastBackupAt: r.lastBackupAt,
      nextBackupAt: r.nextBackupAt,
      mailBackupBytes: r.mailBackupBytes,
      driveBackupBytes: r.driveBackupBytes,
      activeBackup: decodeActiveBackup(r.activeBackup) ?? null,
      lastBackupFailure: r.lastBackupFailure,
      services: decodeServices(r.services) ?? {},
      lastVerifiedAt: r.lastVerifiedAt,
      integrity: decodeResourceIntegrity(r.integrity) ?? null,
    };
  }
  return unexpectedAnswer();
}

export function decodeResourcesPage(value: unknown): ResourcesPage {
  const page = asFields(value);
  if (
    !Array.isArray(page.resources) ||
    !isCount(page.total) ||
    !isCount(page.page) ||
    !isCount(page.pageSize)
  ) {
    return unexpectedAnswer();
  }
  return {
    resources: page.resources.map(decodeResource),
    total: page.total,
    page: page.page,
    pageSize: page.pageSize,
  };
}

/** `GET /v1/organizations/{id}/resources`: one page of resources with search, filters and sorting. */
export async function listResources(
  organizationId: string,
  query: ResourcesQuery,
  signal?: AbortSignal,
): Promise<ResourcesPage> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/resources`, {
    query: { ...query },
    signal,
  });
  return decodeResourcesPage(answer);
}

/**
 * The query keys of the resources screen's data: the list, and beside it what changes with it (analytics,
 * alerts, the policies to choose from). A sync, an assignment or marking alerts read invalidates them all.
 */
export const resourcesKeys = {
  all: (organizationId: string | null) => ["resources", organizationId] as const,
  lists: (organizationId: string | null) => [...resourcesKeys.all(organizationId), "list"] as const,
  list: (organizationId: string | null, query: ResourcesQuery) =>
    [...resourcesKeys.lists(organizationId), query] as const,
  analytics: (organizationId: string | null) => [...resourcesKeys.all(organizationId), "analytics"] as const,
  alerts: (organizationId: string | null) => [...resourcesKeys.all(organizationId), "alerts"] as const,
  policyChoices: (organizationId: string | null) =>
    [...resourcesKeys.all(organizationId), "policy-choices"] as const,
};

export function useResources(organizationId: string | null, query: ResourcesQuery) {
  return useQuery({
    queryKey: resourcesKeys.list(organizationId, query),
    queryFn:
      organizationId === null ? skipToken : ({ signal }) => listResources(organizationId, query, signal),
    placeholderData: keepPreviousData,
  });
}
