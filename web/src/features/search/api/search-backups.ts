import {
  SEARCH_SERVICES,
  type DriveSearchResult,
  type MailSearchResult,
  type SearchResponse,
  type SearchService,
} from "@alpvault/contracts/search";
import { asFields, isString, isNullableString, isCount, unexpectedAnswer } from "@/lib/decode";
import { api } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

export interface SearchQuery {
  service: SearchService;
  /** A resource's name or email. */
  resource: string;
  keyword?: string;
  /** MM-DD-YYYY. */
  date?: string;
  page: number;
  pageSize: number;
}

function decodeMail(value: unknown): MailSearchResult {
  const v = asFields(value);
  if (
    isString(v.itemId) &&
    isString(v.versionId) &&
    isString(v.subject) &&
    isString(v.fromName) &&
    isString(v.fromEmail) &&
    Array.isArray(v.to) &&
    v.to.every(isString) &&
    isString(v.date) &&
    isCount(v.size) &&
    isNullableString(v.deletedAtSource)
  ) {
    return {
      itemId: v.itemId,
      versionId: v.versionId,
      subject: v.subject,
      fromName: v.fromName,
      fromEmail: v.fromEmail,
      to: v.to,
      date: v.date,
      size: v.size,
      deletedAtSource: v.deletedAtSource,
    };
  }
  return unexpectedAnswer();
}

function decodeDrive(value: unknown): DriveSearchResult {
  const v = asFields(value);
  if (
    isString(v.itemId) &&
    isString(v.versionId) &&
    isString(v.name) &&
    isString(v.path) &&
    isString(v.mimeType) &&
    isString(v.createdBy) &&
    isString(v.lastModified) &&
    isString(v.lastBackup) &&
    isCount(v.size) &&
    isString(v.googleId) &&
    isString(v.currentVersion) &&
    isNullableString(v.deletedAtSource) &&
    (v.notExportable === undefined || typeof v.notExportable === "boolean")
  ) {
    return {
      itemId: v.itemId,
      versionId: v.versionId,
      name: v.name,
      path: v.path,
      mimeType: v.mimeType,
      createdBy: v.createdBy,
      lastModified: v.lastModified,
      lastBackup: v.lastBackup,
      size: v.size,
      googleId: v.googleId,
      currentVersion: v.currentVersion,
      deletedAtSource: v.deletedAtSource,
      notExportable: v.notExportable === true,
    };
  }
  return unexpectedAnswer();
}

/** Decodes the answer of a search (anything else is an unexpected answer). */
export function decodeSearchResponse(value: unknown): SearchResponse {
  const v = asFields(value);
  const resource = asFields(v.resource);
  if (
    !(SEARCH_SERVICES as readonly unknown[]).includes(v.service) ||
    !Array.isArray(v.results) ||
    !isCount(v.total) ||
    !isCount(v.page) ||
    !isCount(v.pageSize) ||
    !isString(resource.resourceId) ||
    !isString(resource.name) ||
    !isNullableString(resource.email)
  ) {
    return unexpectedAnswer();
  }
  const common = {
    resource: { resourceId: resource.resourceId, name: resource.name, email: resource.email },
    total: v.total,
    page: v.page,
    pageSize: v.pageSize,
  };
  return v.service === "gmail"
    ? { ...common, service: "gmail", results: v.results.map(decodeMail) }
    : { ...common, service: "drive", results: v.results.map(decodeDrive) };
}

/** `GET /v1/organizations/{id}/search`: one page of a resource's backed-up emails or Drive files. */
export async function searchBackups(
  organizationId: string,
  query: SearchQuery,
  signal?: AbortSignal,
): Promise<SearchResponse> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/search`, {
    query: { ...query },
    signal,
  });
  return decodeSearchResponse(answer);
}

/** Searches when there is a query (null before the first search). */
export const searchKeys = {
  all: (organizationId: string | null) => ["search", organizationId] as const,
  query: (organizationId: string | null, query: SearchQuery | null) =>
    [...searchKeys.all(organizationId), query] as const,
};

/** Nothing is searched until there is a query. */
export function useSearchBackups(organizationId: string | null, query: SearchQuery | null) {
  return useQuery({
    queryKey: searchKeys.query(organizationId, query),
    queryFn:
      organizationId && query ? ({ signal }) => searchBackups(organizationId, query, signal) : skipToken,
    placeholderData: keepPreviousData,
  });
}
