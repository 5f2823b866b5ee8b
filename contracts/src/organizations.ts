/**
 * The onboarding and organisation calls of docs/requirements.md#calls-the-web-makes and the resources list: response types and request
 * schemas shared by web and functions.
 */
import type { Region, RegionId } from "./regions";
import type { ActiveBackup, BackedUpService, BackupFailureReason, ServiceStatus } from "./backups";
import type { ResourceIntegrity } from "./integrity";
import { SERVICE_IDS, type ServiceId } from "./services";

/** docs/requirements.md#data-the-console-shows subscription reference. */
export interface SubscriptionReference {
  subscriptionId: string;
  region: Region;
}

/** docs/requirements.md#data-the-console-shows organisation (in the installation response). */
export interface OrganizationSummary {
  organizationId: string;
  subscriptions: SubscriptionReference[];
  plan: { name: string };
}

/** GET /v1/installation (docs/requirements.md#data-the-console-shows installation response). */
export interface InstallationResponse {
  isAdmin: boolean;
  hasGWInstalled: boolean;
  organizations: OrganizationSummary[];
  user: {
    userId: string;
    email: string;
    displayName: string | null;
    pictureUrl: string | null;
    /** The Workspace domain of the account; null for consumer Google accounts. */
    domain: string | null;
    /** False for accounts that are not in a Google Workspace (e.g. consumer Gmail). */
    hasWorkspaceAccount: boolean;
  };
}

/** GET /v1/regions. */
export interface RegionsResponse {
  regions: Region[];
}

/** POST /v1/organizations: the last onboarding step (subscription setup in the chosen region). */
export interface CreateOrganizationRequest {
  regionId: RegionId;
}

/** GET /v1/organizations/{organizationId} (docs/requirements.md#data-the-console-shows organisation details). */
export interface OrganizationDetails {
  organizationId: string;
  domain: string;
  totalStorage: number;
  maximumStorage: number;
  plan: { name: string };
}

/**
 * What Alpvault's installation grants for one service (GET /v1/organizations/{organizationId}/access): its
 * backups need the backup scopes, its restores the restore scopes (`SERVICES[service].scopes`).
 */
export interface ServiceAccess {
  service: ServiceId;
  name: string;
  /** The organisation's plan includes the service (a plan without it needs none of its scopes). */
  inPlan: boolean;
  backup: boolean;
  restore: boolean;
  /** The scopes Google refused, in the order the service lists them. */
  missingScopes: string[];
  /** What to grant and where, or null when nothing is missing. */
  grant: string | null;
}

/** GET /v1/organizations/{organizationId}/access: each service's access, as Google answered just now. */
export interface AccessResponse {
  services: ServiceAccess[];
  checkedAt: string;
}

/** GET /v1/organizations/{organizationId}/subscriptions/{subscriptionId} (docs/requirements.md#data-the-console-shows subscription). */
export interface SubscriptionDetails {
  subscriptionId: string;
  region: Region;
  plan: {
    id: string;
    name: string;
    premium: boolean;
    maxUsers: number | null;
    storagePerUserBytes: number;
    backupsPerDay: number;
    services: readonly string[];
  };
  renewalDate: string;
  seats: { used: number; total: number | null };
  storage: { used: number; maximum: number };
  autoAddStorage: boolean;
  /** Seats are raised to the active mailboxes when new ones come (paid plans; audited). */
  autoAddSeats: boolean;
  /** Active mailboxes beyond the seats, or null when the seats cover them all. */
  seatOverage: SeatOverage | null;
}

/**
 * More active mailboxes than seats (docs/requirements.md "Seats over the count"): every mailbox is still
 * backed up until `stopsAt`; from then, the mailboxes beyond the count (those added last) are not, until
 * seats are added.
 */
export interface SeatOverage {
  /** Active mailboxes beyond the seats. */
  over: number;
  /** When the count was first seen exceeded (ISO 8601). */
  since: string;
  /** When the mailboxes beyond the count stop being backed up (ISO 8601). */
  stopsAt: string;
  /** The mailboxes beyond the count, those added last first (at most SEAT_OVERAGE_LISTED). */
  mailboxes: { resourceId: string; email: string | null }[];
}

/** An active mailbox as a directory sync sees it: when it was first discovered orders who is beyond the seats. */
export interface SyncedMailbox {
  resourceId: string;
  email: string | null;
  discoveredAt: string;
}

/** Days every mailbox is still backed up after the seat count is first exceeded. */
export const SEAT_GRACE_DAYS = 14;
/** When the mailboxes beyond the count stop being backed up, for an overage first seen at `since`. */
export function seatStopsAt(since: string): Date {
  return new Date(Date.parse(since) + SEAT_GRACE_DAYS * 24 * 3600 * 1000);
}

/** The most mailboxes beyond the count an answer names (the count says how many there are). */
export const SEAT_OVERAGE_LISTED = 50;

/** The parts of a subscription a caller may ask for with repeated `fields` query keys (docs/requirements.md#calls-the-web-makes). */
export const SUBSCRIPTION_FIELDS = [
  "region",
  "plan",
  "renewalDate",
  "seats",
  "storage",
  "autoAddStorage",
  "autoAddSeats",
  "seatOverage",
] as const;
export type SubscriptionField = (typeof SUBSCRIPTION_FIELDS)[number];

/** A subscription answer limited to the asked-for fields (all of them when none are asked for). */
export type SubscriptionView = Pick<SubscriptionDetails, "subscriptionId"> &
  Partial<Omit<SubscriptionDetails, "subscriptionId">>;

export type ResourceType = "email" | "shared_drive";

/** docs/requirements.md#data-the-console-shows resource. */
export interface Resource {
  resourceId: string;
  type: ResourceType;
  name: string;
  /** Mailbox address; null for shared drives. */
  email: string | null;
  /** Directory state of a mailbox; shared drives are always active. */
  status: "active" | "suspended" | "deleted";
  policyId: string | null;
  policyName: string | null;
  protected: boolean;
  lastBackupAt: string | null;
  nextBackupAt: string | null;
  mailBackupBytes: number;
  driveBackupBytes: number;
  /** Calendar's and Contacts' backup sizes (0 until they are backed up). */
  calendarBackupBytes: number;
  contactsBackupBytes: number;
  /** The backup pending or running now (its live progress), or null. */
  activeBackup: ActiveBackup | null;
  /** Why the last backup failed (docs/requirements.md#errors-and-messages reason), or null when it succeeded or none ran yet. */
  lastBackupFailure: BackupFailureReason | null;
  /** Each service of the resource as its last backup left it (a service never backed up is absent). */
  services: Partial<Record<BackedUpService, ServiceStatus>>;
  /** When the resource's backups were last read back in full (integrity verification), or null. */
  lastVerifiedAt: string | null;
  /** The last verification's result, or null when none ran yet. */
  integrity: ResourceIntegrity | null;
}

/** GET /v1/organizations/{id}/resources/{resourceId}: the resource with its item counts (current items). */
export interface ResourceDetail extends Resource {
  mailItems: number;
  driveItems: number;
}

export interface ResourcesPage {
  resources: Resource[];
  total: number;
  page: number;
  pageSize: number;
}

export const RESOURCE_SORT_FIELDS = ["name", "type", "status", "lastBackupAt", "storage"] as const;
export type ResourceSortField = (typeof RESOURCE_SORT_FIELDS)[number];

/** Query of GET /v1/organizations/{id}/resources. */
export interface ResourcesQuery {
  search?: string;
  type?: ResourceType;
  protection?: "protected" | "unprotected";
  policyId?: string;
  sort?: ResourceSortField;
  direction?: "asc" | "desc";
  page?: number;
  pageSize?: number;
}

/** GET /v1/organizations/{id}/analytics: the resources screen's figures, real aggregates. */
export interface ResourcesAnalytics {
  protectedResources: number;
  totalResources: number;
  totalBackupBytes: number;
  protectionStatus: "compliant" | "unprotected";
  dataDynamics: { currentCycleBytes: number; lastCycleBytes: number; changePercent: number | null };
  emails: number;
  files: number;
}

export interface Alert {
  alertId: string;
  createdAt: string;
  kind:
    | "resources-added"
    | "resources-removed"
    | "backup-failed"
    | "integrity-damaged"
    | "storage"
    | "billing"
    | "drill-failed";
  message: string;
  read: boolean;
}

export interface AlertsResponse {
  alerts: Alert[];
  unread: number;
}

export const ORGANIZATION_MESSAGES = {
  regionAlreadyChosen: "The backup region cannot be changed once confirmed.",
  notInstalled: "Install the application using a Google Workspace super admin account.",
  notAdmin: "The account is not admin. Please change account and login as a super admin.",
  otherGoogleAccount:
    "This Google account is not the Workspace account of its address. Sign in with your Google Workspace account.",
  noWorkspace: "This Google account does not belong to a Google Workspace organisation.",
  organizationNotFound: "Organization not found",
  subscriptionNotFound: "Subscription not found",
  unknownSubscriptionField: `Unknown subscription field. Use ${SUBSCRIPTION_FIELDS.join(", ")}.`,
  invalidRegion: "Please choose one of the offered backup regions.",
  workspaceUnavailable: "Google Workspace could not be reached. Please try again later.",
} as const;

/**
 * 421 Misdirected Request: an organisation's data is processed and served only by its region's API, at
 * its region's host (`subscriptions[].region.domain`); another region's API, or the global one, names it.
 */
export function servedElsewhereMessage(regionApiUrl: string): string {
  return `This organisation's data is served in its region, at ${regionApiUrl}.`;
}

/** The resource field of each service's backup size. */
export const SERVICE_BACKUP_BYTES_FIELDS = {
  gmail: "mailBackupBytes",
  drive: "driveBackupBytes",
  calendar: "calendarBackupBytes",
  contacts: "contactsBackupBytes",
} as const satisfies Record<ServiceId, keyof Resource>;

type BackupBytesField = (typeof SERVICE_BACKUP_BYTES_FIELDS)[ServiceId];

/** Everything a resource's backups hold, every service's size together (what its storage counts). */
export function resourceBackupBytes(resource: Pick<Resource, BackupBytesField>): number {
  return SERVICE_IDS.reduce((total, service) => total + resource[SERVICE_BACKUP_BYTES_FIELDS[service]], 0);
}
