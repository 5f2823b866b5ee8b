/**
 * Onboarding and organisations: what the signed-in Google account may do (installation, admin), the
 * one-time choice of the backup region that creates the organisation, and its details and subscription.
 */
import { randomBytes } from "node:crypto";
import {
  ORGANIZATION_MESSAGES,
  SEAT_OVERAGE_LISTED,
  seatStopsAt,
  type AccessResponse,
  type CreateOrganizationRequest,
  type InstallationResponse,
  type OrganizationDetails,
  type OrganizationSummary,
  type SeatOverage,
  type SubscriptionField,
  type SubscriptionView,
  servedElsewhereMessage,
} from "@alpvault/contracts/organizations";
import { PLANS, isPremium, maximumStorageBytes } from "@alpvault/contracts/plans";
import { REGIONS, isRegionId, type Region, type RegionId } from "@alpvault/contracts/regions";
import { appendAudit } from "../audit/service";
import { DomainError } from "../lib/errors";
import type { Caller, RefusedAttempt } from "../lib/caller";
import { isId } from "@alpvault/contracts/ids";
import type { Scope, Transaction } from "../lib/tenancy";
import type { WorkspaceGateway } from "../workspace/gateway";
import { serviceAccess } from "./access";
import * as organizations from "./repo";
import type { Account, Organization } from "./repo";

export type { Account, GracefulPeriod, Organization } from "./repo";
export { NO_SEAT_OVERAGE, seatsOf, type SeatOverageState } from "./repo";

/** Consumer Google accounts have no Workspace behind them (docs/requirements.md#validation consumer-mail helper). */
export function isConsumerEmail(email: string): boolean {
  return /@(gmail\.com|googlemail\.com)$/i.test(email);
}

export function domainOf(email: string): string {
  return (email.split("@")[1] ?? "").toLowerCase();
}

/** docs/requirements.md#constants-and-limits random id helper: digits, letters, hyphen, underscore. */
export function randomId(length = 10): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";
  const bytes = randomBytes(length);
  let id = "";
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}

export interface OrganizationDeps {
  workspace: WorkspaceGateway;
  /**
   * The region whose organisations this API serves (their data is processed and served there only), or
   * null for the global API, which serves none.
   */
  servingRegion: RegionId | null;
  regionDomain(regionId: RegionId): string;
  /** A region's API base URL, named in the 421 that sends a caller there. */
  regionApiUrl(regionId: RegionId): string;
  /** Re-reads the domain's users and shared drives into the organisation's resources. */
  syncResources(organization: Organization, adminEmail: string): Promise<unknown>;
  /** What the organisation uses, read in one pass: backup bytes and active mailboxes (seats). */
  usage(organization: Organization): Promise<OrganizationUsage>;
  now?: () => Date;
}

export interface OrganizationUsage {
  storageBytes: number;
  activeMailboxes: number;
}

export function regionsWithDomains(regionDomain: (regionId: RegionId) => string): Region[] {
  return REGIONS.map((region) => ({ ...region, domain: regionDomain(region.id as RegionId) }));
}

function summary(organization: Organization, regions: Region[]): OrganizationSummary {
  const region = regions.find((candidate) => candidate.id === organization.regionId) as Region;
  return {
    organizationId: organization.organizationId,
    subscriptions: [{ subscriptionId: organization.subscriptionId, region }],
    plan: { name: PLANS[organization.planId].name },
  };
}

/**
 * The overage the console shows, from the recorded one and the mailboxes active now: null when the seats
 * cover them (seats bought since the last sync count at once).
 */
export function seatOverageView(account: Account, activeMailboxes: number): SeatOverage | null {
  const over = activeMailboxes - organizations.seatsOf(account);
  const { since, unseated } = account.seatOverage;
  if (over <= 0 || !since) return null;
  return {
    over,
    since,
    stopsAt: seatStopsAt(since).toISOString(),
    mailboxes: unseated.slice(0, Math.min(over, SEAT_OVERAGE_LISTED)),
  };
}

/** The service's dependencies with the clock and the regions (with their API domains) filled in. */
type OrganizationContext = OrganizationDeps & { now: () => Date; regions: () => Region[] };

/**
 * What the Directory says of the caller: a super admin, not one, or another Google account than the
 * Workspace user of that address (the Directory user id is the `sub` of that user's Google sign-in).
 */
async function adminStatus(
  deps: OrganizationContext,
  caller: Caller,
): Promise<"admin" | "not-admin" | "other-account"> {
  const user = await deps.workspace.directoryUser(caller.email);
  if (!user) return "not-admin";
  if (user.id !== caller.googleSub) return "other-account";
  return user.isAdmin ? "admin" : "not-admin";
}

/** 403 unless the Directory knows the caller as a super admin, signed in as that very account. */
async function assertAdmin(deps: OrganizationContext, caller: Caller): Promise<void> {
  const status = await adminStatus(deps, caller);
  if (status === "other-account") throw DomainError.forbidden(ORGANIZATION_MESSAGES.otherGoogleAccount);
  if (status !== "admin") throw DomainError.forbidden(ORGANIZATION_MESSAGES.notAdmin);
}

/** 421 naming the region's API unless this API serves `regionId`. */
function assertServed(deps: OrganizationContext, regionId: RegionId): void {
  if (regionId !== deps.servingRegion) {
    throw DomainError.misdirected(servedElsewhereMessage(deps.regionApiUrl(regionId)));
  }
}

/**
 * The caller must be a super admin of the organisation's domain; anything else sees no organisation.
 * Its admin is sent to its region's API (421) before anything of the region is read here.
 */
async function requireAdmin(
  deps: OrganizationContext,
  caller: Caller,
  organizationId: string,
): Promise<Organization> {
  const routing = await organizations.getRouting(organizationId);
  if (!routing || domainOf(caller.email) !== routing.domain) {
    throw DomainError.notFound(ORGANIZATION_MESSAGES.organizationNotFound);
  }
  await assertAdmin(deps, caller);
  assertServed(deps, routing.regionId);
  return organizations.withAccount(routing);
}

/**
 * Writes a refused sign-in (not a verified Google identity) into the audit log of the organisation
 * its path names, when that organisation exists and this API serves its region. One entry per account and minute, so a flood of
 * refused calls cannot flood the log; nothing else is read or changed.
 */
async function recordRefusedAccess(deps: OrganizationContext, attempt: RefusedAttempt): Promise<void> {
  if (!isId(attempt.organizationId)) return;
  // Only the organisation's own region writes its log.
  const organization = await organizations.getRouting(attempt.organizationId);
  if (!organization || organization.regionId !== deps.servingRegion) return;
  const at = deps.now();
  await appendAudit(organization, {
    operation: "access.refused",
    actor: attempt.claimedEmail ?? `account ${attempt.uid}`,
    object: `${attempt.method} ${attempt.path}`,
    failureReason: `${attempt.reason} Sign-in method: ${attempt.signInProvider ?? "unknown"}.`,
    date: at,
    key: `refused-${attempt.uid}-${Math.floor(at.getTime() / 60_000)}`,
  });
}

async function installation(deps: OrganizationContext, caller: Caller): Promise<InstallationResponse> {
  const email = caller.email;
  const consumer = isConsumerEmail(email);
  const state = consumer ? "no-account" : await deps.workspace.installation(email);
  const hasGWInstalled = state === "installed";
  const isAdmin = hasGWInstalled && (await adminStatus(deps, caller)) === "admin";
  const organization = isAdmin ? await organizations.organizationOfDomain(domainOf(email)) : undefined;
  return {
    isAdmin,
    hasGWInstalled,
    organizations: organization ? [summary(organization, deps.regions())] : [],
    user: {
      userId: caller.uid,
      email,
      displayName: caller.displayName ?? null,
      pictureUrl: caller.pictureUrl ?? null,
      domain: consumer ? null : domainOf(email),
      hasWorkspaceAccount: !consumer && state !== "no-account",
    },
  };
}

/**
 * The last onboarding step: the region is chosen once. Choosing again with the same region is the
 * retry of a failed set-up (it syncs again); another region is refused.
 */
async function createOrganization(
  deps: OrganizationContext,
  caller: Caller,
  request: CreateOrganizationRequest,
): Promise<{ organization: OrganizationSummary; created: boolean }> {
  const email = caller.email;
  if (!isRegionId(request.regionId)) throw DomainError.invalid(ORGANIZATION_MESSAGES.invalidRegion);
  // The organisation's data (its directory first) is written by the chosen region's API only.
  assertServed(deps, request.regionId);
  if (isConsumerEmail(email)) throw DomainError.forbidden(ORGANIZATION_MESSAGES.noWorkspace);
  if ((await deps.workspace.installation(email)) !== "installed") {
    throw DomainError.forbidden(ORGANIZATION_MESSAGES.notInstalled);
  }
  await assertAdmin(deps, caller);
  const createdAt = deps.now().toISOString();
  const { organization, created } = await organizations.claimDomain({
    organizationId: randomId(),
    domain: domainOf(email),
    regionId: request.regionId,
    subscriptionId: randomId(),
    ...organizations.INITIAL_ACCOUNT,
    createdAt,
    createdBy: caller.uid,
    adminEmail: email,
  });
  if (organization.regionId !== request.regionId) {
    throw DomainError.conflict(ORGANIZATION_MESSAGES.regionAlreadyChosen);
  }
  await organizations.ensureAccount(organization);
  await deps.syncResources(organization, email);
  return { organization: summary(organization, deps.regions()), created };
}

/**
 * Connecting reads the details after every sign-in (docs/requirements.md#states-and-flows): this is where the sign-in is audited,
 * in the organisation's region; the sign-in time makes it one entry per sign-in.
 */
async function details(
  deps: OrganizationContext,
  caller: Caller,
  organizationId: string,
): Promise<OrganizationDetails> {
  const organization = await requireAdmin(deps, caller, organizationId);
  if (caller.authTime) {
    await appendAudit(organization, {
      operation: "user.logged-in",
      actor: caller.email,
      object: caller.email,
      date: new Date(caller.authTime * 1000),
      key: `login-${caller.uid}-${caller.authTime}`,
    });
  }
  const plan = PLANS[organization.planId];
  return {
    organizationId,
    domain: organization.domain,
    totalStorage: (await deps.usage(organization)).storageBytes,
    maximumStorage: maximumStorageBytes(plan, organizations.seatsOf(organization), organization.storagePacks),
    plan: { name: plan.name },
  };
}

/** What the installation grants, service by service (organizations/access.ts), for the organisation's admin. */
async function access(
  deps: OrganizationContext,
  caller: Caller,
  organizationId: string,
): Promise<AccessResponse> {
  const organization = await requireAdmin(deps, caller, organizationId);
  return serviceAccess(deps.workspace, caller.email, organization.planId, deps.now());
}

/** docs/requirements.md#calls-the-web-makes plan data; `fields` (repeated query keys) limits the answer, none means everything. */
async function subscription(
  deps: OrganizationContext,
  caller: Caller,
  organizationId: string,
  subscriptionId: string,
  fields: readonly SubscriptionField[] = [],
): Promise<SubscriptionView> {
  const organization = await requireAdmin(deps, caller, organizationId);
  if (organization.subscriptionId !== subscriptionId) {
    throw DomainError.notFound(ORGANIZATION_MESSAGES.subscriptionNotFound);
  }
  const wanted = (field: SubscriptionField) => fields.length === 0 || fields.includes(field);
  const plan = PLANS[organization.planId];
  const seats = organizations.seatsOf(organization);
  const usage =
    wanted("seats") || wanted("storage") || wanted("seatOverage") ? await deps.usage(organization) : null;
  const view: SubscriptionView = { subscriptionId };
  if (wanted("region")) {
    view.region = deps.regions().find((region) => region.id === organization.regionId) as Region;
  }
  if (wanted("plan")) view.plan = { ...plan, premium: isPremium(plan.id) };
  if (wanted("renewalDate")) view.renewalDate = nextRenewal(organization.createdAt, deps.now());
  if (usage && wanted("seats")) {
    view.seats = { used: usage.activeMailboxes, total: seats };
  }
  if (usage && wanted("storage")) {
    view.storage = {
      used: usage.storageBytes,
      maximum: maximumStorageBytes(plan, seats, organization.storagePacks),
    };
  }
  if (wanted("autoAddStorage")) view.autoAddStorage = organization.autoAddStorage;
  if (wanted("autoAddSeats")) view.autoAddSeats = organization.autoAddSeats;
  if (usage && wanted("seatOverage")) view.seatOverage = seatOverageView(organization, usage.activeMailboxes);
  return view;
}
export function organizationService(deps: OrganizationDeps) {
  const context: OrganizationContext = {
    ...deps,
    now: deps.now ?? (() => new Date()),
    regions: () => regionsWithDomains(deps.regionDomain),
  };
  return {
    requireAdmin: (caller: Caller, organizationId: string) => requireAdmin(context, caller, organizationId),
    regions: context.regions,
    recordRefusedAccess: (attempt: RefusedAttempt) => recordRefusedAccess(context, attempt),
    installation: (caller: Caller) => installation(context, caller),
    createOrganization: (caller: Caller, request: CreateOrganizationRequest) =>
      createOrganization(context, caller, request),
    details: (caller: Caller, organizationId: string) => details(context, caller, organizationId),
    access: (caller: Caller, organizationId: string) => access(context, caller, organizationId),
    subscription: (
      caller: Caller,
      organizationId: string,
      subscriptionId: string,
      fields: readonly SubscriptionField[] = [],
    ) => subscription(context, caller, organizationId, subscriptionId, fields),
  };
}

export type OrganizationService = ReturnType<typeof organizationService>;

/** Billing cycles are monthly from the day the organisation was created. */
export function nextRenewal(createdAt: string, now: Date): string {
  const start = new Date(createdAt);
  const renewal = new Date(start);
  let months = 1;
  renewal.setUTCMonth(start.getUTCMonth() + months);
  while (renewal <= now) {
    months += 1;
    renewal.setTime(start.getTime());
    renewal.setUTCMonth(start.getUTCMonth() + months);
  }
  return renewal.toISOString();
}

/**
 * The organisation with its account, when it is served in `servingRegion` (any region when undefined):
 * a worker of another region's deployment leaves it alone.
 */
export function organizationServedIn(
  organizationId: string,
  servingRegion: RegionId | undefined,
): Promise<Organization | undefined> {
  return organizations.organizationServedIn(organizationId, servingRegion);
}

/** Every organisation of the region (routing only, without the account), page by page. */
export function organizationsIn(regionId: RegionId): AsyncGenerator<Organization> {
  return organizations.organizationsIn(regionId);
}

/** The organisation's routing record, without its account. */
export function getRouting(organizationId: string): Promise<Organization | undefined> {
  return organizations.getRouting(organizationId);
}

/** The routing record with the organisation's account read from its region. */
export function withAccount(routing: Organization): Promise<Organization> {
  return organizations.withAccount(routing);
}

/** The account as read in `transaction` (a billing change reads it before changing it). */
export function readAccountIn(transaction: Transaction, scope: Scope): Promise<Account> {
  return organizations.readAccount(scope, transaction);
}

/** Writes account fields in `transaction` (the change's audit entry goes in the same one). */
export function writeAccountIn(transaction: Transaction, scope: Scope, account: Partial<Account>): void {
  organizations.writeAccount(transaction, scope, account);
}
