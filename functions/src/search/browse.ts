/**
 * Browsing a resource's backups at a point in time (docs/requirements.md#backup-activity, docs/api.md
 * "Browse"): the mailbox by label, the drive by folder, with the items as the backups held them at the end
 * of the chosen day (or now), in the search results' shapes. The items are found as a search without a
 * keyword finds them (`findItems`, the same streams, totals and page tokens), narrowed by the label or the
 * folder as the catalog files the items now; each is shown at its version of the date. Sub-folders are
 * found one read each (`nextFolderPath`), never by reading the folder's files. Audited as a search.
 */
import {
  BROWSE_MESSAGES,
  MAX_BROWSE_FOLDERS,
  SYSTEM_LABELS,
  type BrowseFolder,
  type BrowseLabel,
  type BrowseResponse,
} from "@alpvault/contracts/browse";
import {
  MAX_SEARCH_PAGE_SIZE,
  BROWSE_SERVICES,
  searchDateEnd,
  searchDateProblem,
  type BrowseService,
} from "@alpvault/contracts/search";
import { ACTIVITY_MESSAGES } from "@alpvault/contracts/activity";
import { isId } from "@alpvault/contracts/ids";
import type { Resource } from "@alpvault/contracts/organizations";
import { mailLabelNames } from "../backups/service";
import { bounded } from "../engine/sources/search-text";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import { resourceById } from "../resources/service";
import { findItems } from "./find-items";
import { searchDigest, type PageToken } from "./page-token";
import { nextFolderPath } from "./repo";
import { driveResult, mailResult } from "./results";
import { auditSearch, heldAt, pageOf, positive, single, tokenOf } from "./service";

/** The longest label or folder a browse takes. */
const MAX_LABEL = 200;
const MAX_FOLDER = 1_000;
/** Sorts after every character a path holds: the end of a folder's range. */
const HIGHEST = "\uf8ff";

export interface BrowseQuery {
  /** As asked for, or as a label (Gmail) or a folder (Drive) implies; absent: the resource's first. */
  service?: BrowseService;
  asOf?: string;
  label?: string;
  folder: string;
  page: number;
  pageSize: number;
  pageToken?: string;
}

/** Reads and checks a browse's query; anything else is a 400 with its text. */
export function parseBrowseQuery(query: Record<string, unknown>): BrowseQuery {
  const asked = single(query, "service");
  if (asked !== undefined && !(BROWSE_SERVICES as readonly string[]).includes(asked)) {
    throw DomainError.invalid(BROWSE_MESSAGES.unknownService);
  }
  const date = single(query, "date");
  const dateProblem = date ? searchDateProblem(date) : null;
  if (dateProblem) throw DomainError.invalid(dateProblem);
  const asOf = date ? searchDateEnd(date) : undefined;
  const label = single(query, "label");
  const folder = single(query, "folder");
  const service = asked ?? (label !== undefined ? "gmail" : folder !== undefined ? "drive" : undefined);
  if (label !== undefined && service !== "gmail") throw DomainError.invalid(BROWSE_MESSAGES.labelForMail);
  if (folder !== undefined && service !== "drive") throw DomainError.invalid(BROWSE_MESSAGES.folderForDrive);
  if (label !== undefined && (label.trim() === "" || label.length > MAX_LABEL)) {
    throw DomainError.invalid(BROWSE_MESSAGES.invalidLabel);
  }
  if (folder !== undefined && folder.length > MAX_FOLDER)
    throw DomainError.invalid(BROWSE_MESSAGES.invalidFolder);
  const pageToken = single(query, "pageToken");
  return {
    ...(service ? { service: service as BrowseService } : {}),
    ...(asOf ? { asOf } : {}),
    ...(label !== undefined ? { label } : {}),
    folder: (folder ?? "").trim().replace(/\/+$/, ""),
    page: positive(query, "page", 1, 100_000),
    pageSize: positive(query, "pageSize", 25, MAX_SEARCH_PAGE_SIZE),
    ...(pageToken ? { pageToken } : {}),
  };
}

/** The service a browse shows: the one asked for (or implied), else a mailbox's Gmail, a shared drive's Drive. */
export function browsedService(query: BrowseQuery, type: Resource["type"]): BrowseService {
  return query.service ?? (type === "shared_drive" ? "drive" : "gmail");
}

/** The mailbox's labels: Gmail's system ones, then the user's as its last backup named them. */
async function labelsOf(scope: Scope, resourceId: string): Promise<BrowseLabel[]> {
  const user = Object.values((await mailLabelNames(scope, resourceId)) ?? {})
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ label: name, name, system: false }));
  return [...SYSTEM_LABELS.map((label) => ({ label: label.id, name: label.name, system: true })), ...user];
}

/**
 * The sub-folders of `folder` (its path as kept; "" for the top, whose sub-folders are the roots), at most
 * `MAX_BROWSE_FOLDERS`: each found by the first file path after the last one found, a descendant of the
 * last one found making the next read skip its tree.
 */
export async function subFolders(
  scope: Scope,
  resourceId: string,
  folder: string,
): Promise<{ folders: BrowseFolder[]; atLeast: boolean }> {
  const prefix = folder === "" ? "" : `${folder}/`;
  const depth = folder === "" ? 0 : folder.split("/").length;
  const end = `${prefix}${HIGHEST}`;
  const folders: BrowseFolder[] = [];
  let after = prefix;
  let last: string | undefined;
  for (let reads = 0; reads <= 2 * MAX_BROWSE_FOLDERS + 1; reads++) {
    const next = await nextFolderPath(scope, resourceId, after, end);
    if (!next) return { folders, atLeast: false };
    const child = `${prefix}${next.path.slice(prefix.length).split("/")[0] ?? ""}`;
    if (child === last) {
      after = `${child}/${HIGHEST}`;
      continue;
    }
    if (folders.length === MAX_BROWSE_FOLDERS) return { folders, atLeast: true };
    const shown = next.shown.split("/").slice(0, depth + 1);
    folders.push({ name: shown[depth] ?? child.slice(prefix.length), path: shown.join("/") });
    last = child;
    after = child;
  }
  return { folders, atLeast: true };
}

/** GET …/resources/{resourceId}/browse: one page of a label's or a folder's items, and where to go on. */
export async function browseBackups(
  scope: Scope,
  resourceId: string,
  rawQuery: Record<string, unknown>,
  actor: string,
  now = new Date(),
): Promise<BrowseResponse> {
  const query = parseBrowseQuery(rawQuery);
  // The resource and its labels are read side by side (the labels only where Gmail may be browsed).
  const [resource, mailboxLabels] = await Promise.all([
    resourceById(scope, resourceId),
    query.service !== "drive" && isId(resourceId) ? labelsOf(scope, resourceId) : undefined,
  ]);
  if (!resource) throw DomainError.notFound(ACTIVITY_MESSAGES.resourceNotFound);
  const service = browsedService(query, resource.type);
  const mail = service === "gmail";
  const labels = mail ? (mailboxLabels ?? []) : [];
  if (query.label !== undefined && !labels.some((label) => label.label === query.label)) {
    throw DomainError.invalid(BROWSE_MESSAGES.invalidLabel);
  }
  // As the catalog keeps a path (lower case, at most `MAX_TEXT` characters), so that they compare.
  const folderKey = bounded(query.folder);
  const narrowing = mail ? (query.label ?? "") : folderKey;
  const digest = searchDigest(["browse", service, resource.resourceId, narrowing, query.asOf ?? null]);
  const token = tokenOf(query, digest);
  // The top of the drives holds folders only: every file is in a root ("My Drive", a shared drive).
  const findPage = () =>
    !mail && folderKey === ""
      ? Promise.resolve({ items: [], total: 0, totalAtLeast: false, next: null })
      : findItems(scope, resource.resourceId, {
          kind: mail ? "gmail-message" : "drive-file",
          words: [],
          ...(mail && query.label !== undefined ? { label: bounded(query.label) } : {}),
          ...(!mail ? { folder: folderKey } : {}),
          ...(query.asOf ? { asOf: query.asOf } : {}),
          pageSize: query.pageSize,
          skip: token ? 0 : (query.page - 1) * query.pageSize,
          ...(token ? { token } : {}),
        });
  // Each step waits only for what it needs: the page and the sub-folders side by side, then the page's
  // versions at the date beside the audit entry (written once the page is found).
  const [found, sub] = await Promise.all([
    findPage(),
    mail ? { folders: [], atLeast: false } : subFolders(scope, resource.resourceId, folderKey),
  ]);
  const [items] = await Promise.all([
    heldAt(scope, resource.resourceId, found.items, query.asOf),
    auditSearch(scope, actor, service, resource, now),
  ]);
  const base = {
    ...pageOf(resource, query, found, digest),
    asOf: query.asOf ?? null,
    labels,
    folder: query.folder,
    folders: sub.folders,
    foldersAtLeast: sub.atLeast,
  };
  return mail
    ? { ...base, service: "gmail", results: items.map(mailResult) }
    : { ...base, service: "drive", results: items.map(driveResult) };
}

/** The catalog page an export of a label or a folder is gathered by. */
const PLACE_PAGE = 500;

/**
 * The keys of the items a browse of a label (Gmail) or a folder (Drive, its own files) shows at `asOf`, every
 * page of it, as the browse finds them (the same streams): what an export of that place takes. At most
 * `limit` (`more`: the place holds others). A label that is none of the mailbox's, or a folder path over
 * 1,000 characters, is refused with the browse's text.
 */
export async function itemKeysIn(
  scope: Scope,
  resourceId: string,
  place: { service: BrowseService; label?: string; folder?: string; asOf?: string },
  limit: number,
): Promise<{ keys: string[]; more: boolean }> {
  const mail = place.service === "gmail";
  if (mail && place.label !== undefined) {
    const labels = await labelsOf(scope, resourceId);
    if (!labels.some((label) => label.label === place.label)) {
      throw DomainError.invalid(BROWSE_MESSAGES.invalidLabel);
    }
  }
  if ((place.folder ?? "").length > MAX_FOLDER) throw DomainError.invalid(BROWSE_MESSAGES.invalidFolder);
  const folderKey = bounded((place.folder ?? "").trim().replace(/\/+$/, ""));
  // The top of the drives holds folders only.
  if (!mail && folderKey === "") return { keys: [], more: false };
  const keys: string[] = [];
  let token: PageToken | undefined;
  for (let page = 1; ; page++) {
    const found = await findItems(scope, resourceId, {
      kind: mail ? "gmail-message" : "drive-file",
      words: [],
      ...(mail && place.label !== undefined ? { label: bounded(place.label) } : {}),
      ...(!mail ? { folder: folderKey } : {}),
      ...(place.asOf ? { asOf: place.asOf } : {}),
      pageSize: PLACE_PAGE,
      skip: 0,
      ...(token ? { token } : {}),
    });
    for (const item of found.items) {
      if (keys.length === limit) return { keys, more: true };
      keys.push(item.itemKey);
    }
    if (!found.next) return { keys, more: false };
    token = { page: page + 1, position: found.next, total: found.total, totalAtLeast: found.totalAtLeast };
  }
}

/** The name a label is shown by: Gmail's for its system labels, else the label itself (a user label's name). */
export function labelName(label: string): string {
  return SYSTEM_LABELS.find((system) => system.id === label)?.name ?? label;
}
