/**
 * Browsing a resource's backups at a point in time (docs/requirements.md#backup-activity, docs/api.md
 * "Browse"): the mailbox by label, the drive by folder, a calendar by day or week, the address book by
 * contact group, with the items as the backups held them at the end of the chosen day (or now), in the
 * search results' shapes. What is the same for every service is here: the query's service and day, the
 * resource, the page token, the audit entry ("Backup item searched"), the answer; each service's places
 * are its `PlaceBrowser` (`BROWSERS`).
 */
import { BROWSE_MESSAGES, NO_BROWSE_PLACES, type BrowseResponse } from "@alpvault/contracts/browse";
import {
  MAX_SEARCH_PAGE_SIZE,
  BROWSE_SERVICES,
  searchDateEnd,
  searchDateProblem,
  type BrowseService,
} from "@alpvault/contracts/search";
import { ACTIVITY_MESSAGES } from "@alpvault/contracts/activity";
import type { Resource } from "@alpvault/contracts/organizations";
import { itemKindOf, SERVICE_IDS, SERVICES } from "@alpvault/contracts/services";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import { resourceById } from "../resources/service";
import { calendarBrowser } from "./browse-calendar";
import { contactsBrowser } from "./browse-contacts";
import { driveBrowser } from "./browse-drive";
import { mailBrowser } from "./browse-mail";
import type { BrowseCommon, BrowsedPlace, PlaceBrowser, PlaceKeys } from "./browse-place";
import { searchDigest } from "./page-token";
import { auditSearch, pageOf, positive, single, tokenOf } from "./service";

/** Each service's places. */
const BROWSERS: Readonly<Record<BrowseService, PlaceBrowser>> = {
  gmail: mailBrowser,
  drive: driveBrowser,
  calendar: calendarBrowser,
  contacts: contactsBrowser,
};

export interface BrowseQuery extends BrowseCommon {
  /** As asked for, or as a place's parameter implies; absent: the resource's first service. */
  service?: BrowseService;
}

/** The fields a browse body may have: its date and page, and each service's place. */
export const BROWSE_TERMS = [
  "service",
  "date",
  "page",
  "pageSize",
  "pageToken",
  ...BROWSE_SERVICES.flatMap((service) => BROWSERS[service].params),
];

/** Reads and checks a browse's query (its place is read by its service's browser); anything else is a 400. */
export function parseBrowseQuery(query: Record<string, unknown>): BrowseQuery {
  const asked = single(query, "service");
  if (asked !== undefined && !(BROWSE_SERVICES as readonly string[]).includes(asked)) {
    throw DomainError.invalid(BROWSE_MESSAGES.unknownService);
  }
  const given = (service: BrowseService) =>
    BROWSERS[service].params.some((param) => single(query, param) !== undefined);
  const service = (asked as BrowseService | undefined) ?? BROWSE_SERVICES.find(given);
  const misplaced = BROWSE_SERVICES.find((other) => other !== service && given(other));
  if (misplaced) throw DomainError.invalid(BROWSERS[misplaced].misplaced);
  const date = single(query, "date");
  const dateProblem = date ? searchDateProblem(date) : null;
  if (dateProblem) throw DomainError.invalid(dateProblem);
  const asOf = date ? searchDateEnd(date) : undefined;
  const pageToken = single(query, "pageToken");
  return {
    ...(service ? { service } : {}),
    ...(asOf ? { asOf } : {}),
    page: positive(query, "page", 1, 100_000),
    pageSize: positive(query, "pageSize", 25, MAX_SEARCH_PAGE_SIZE),
    ...(pageToken ? { pageToken } : {}),
  };
}

/** The service a browse shows: the one asked for (or implied), else the resource's first (a shared drive's Drive). */
export function browsedService(query: BrowseQuery, type: Resource["type"]): BrowseService {
  const hasMailbox = type !== "shared_drive";
  return query.service ?? SERVICE_IDS.find((id) => hasMailbox || !SERVICES[id].needsMailbox) ?? "drive";
}

/** GET …/resources/{resourceId}/browse: one page of a place's items, and where to go on. */
export async function browseBackups(
  scope: Scope,
  resourceId: string,
  rawQuery: Record<string, unknown>,
  actor: string,
  now = new Date(),
): Promise<BrowseResponse> {
  const query = parseBrowseQuery(rawQuery);
  // A place is checked before the resource is read when its service is known.
  const asked: BrowsedPlace | undefined = query.service ? BROWSERS[query.service].open(rawQuery) : undefined;
  const resource = await resourceById(scope, resourceId);
  if (!resource) throw DomainError.notFound(ACTIVITY_MESSAGES.resourceNotFound);
  const service = browsedService(query, resource.type);
  const place = asked ?? BROWSERS[service].open(rawQuery);
  const digest = searchDigest(["browse", service, resource.resourceId, place.key, query.asOf ?? null]);
  const token = tokenOf(query, digest);
  const page = await place.page({
    scope,
    resource,
    service,
    kind: itemKindOf(service),
    common: query,
    token,
    now,
  });
  await auditSearch(scope, actor, service, resource, now);
  // The results are of the service named beside them (each browser maps its own).
  return {
    ...pageOf(resource, query, page.found, digest),
    asOf: query.asOf ?? null,
    ...NO_BROWSE_PLACES,
    ...page.extras,
    service,
    results: page.results,
  } as BrowseResponse;
}

/**
 * The keys of the items a browse of a place shows at `asOf`, every page of it, as the browse finds them:
 * what an export of that place takes. At most `limit` (`more`: the place holds others). A place the browse
 * refuses is refused with its text; one that is not exported whole (a calendar's days) with `refused`.
 */
export async function itemKeysIn(
  scope: Scope,
  resourceId: string,
  service: BrowseService,
  place: Record<string, string>,
  asOf: string | undefined,
  limit: number,
  refused: string,
): Promise<PlaceKeys> {
  const opened = BROWSERS[service].open(place);
  if (!opened.keys) throw DomainError.invalid(refused);
  return opened.keys({ scope, resourceId, kind: itemKindOf(service) }, asOf, limit);
}
