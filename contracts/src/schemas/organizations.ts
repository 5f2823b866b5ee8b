import { z } from "zod/mini";
import { SERVICE_IDS } from "../services";
import type {
  AccessResponse,
  Alert,
  AlertsResponse,
  InstallationResponse,
  OrganizationDetails,
  OrganizationSummary,
  RegionsResponse,
  Resource,
  ResourceDetail,
  ResourcesAnalytics,
  ResourcesPage,
  SubscriptionDetails,
  SubscriptionView,
} from "../organizations";
import type { ResourceIntegrity } from "../integrity";
import type { Region } from "../regions";
import { activeBackupSchema, backupFailureReasonSchema, serviceStatusSchema } from "./backups";
import { count, nullableString } from "./common";
import { resourceIntegritySchema } from "./integrity";

/** docs/requirements.md#data-the-console-shows resource. */
const resourceShape = {
  resourceId: z.string(),
  type: z.enum(["email", "shared_drive"]),
  name: z.string(),
  email: nullableString,
  status: z.enum(["active", "suspended", "deleted"]),
  policyId: nullableString,
  policyName: nullableString,
  protected: z.boolean(),
  lastBackupAt: nullableString,
  nextBackupAt: nullableString,
  mailBackupBytes: count,
  driveBackupBytes: count,
  /** Absent from answers that predate Calendar and Contacts backups. */
  calendarBackupBytes: z._default(count, 0),
  contactsBackupBytes: z._default(count, 0),
  activeBackup: z.nullable(activeBackupSchema),
  lastBackupFailure: z.nullable(backupFailureReasonSchema),
  /** A service never backed up is absent (and all are, from answers that predate services). */
  services: z._default(z.partialRecord(z.enum(SERVICE_IDS), serviceStatusSchema), {}),
  lastVerifiedAt: nullableString,
  /** Absent or null: never verified. */
  integrity: z.pipe(
    z.nullish(resourceIntegritySchema),
    z.transform((integrity: ResourceIntegrity | null | undefined) => integrity ?? null),
  ),
};

export const resourceSchema: z.ZodMiniType<Resource> = z.object(resourceShape);

/** GET …/resources/{resourceId}: the resource page's figures. */
export const resourceDetailSchema: z.ZodMiniType<ResourceDetail> = z.object({
  ...resourceShape,
  mailItems: count,
  driveItems: count,
});

export const resourcesPageSchema: z.ZodMiniType<ResourcesPage> = z.object({
  resources: z.array(resourceSchema),
  total: count,
  page: count,
  pageSize: count,
});

/** A finite number (zod 4 refuses infinities). */
const figure = z.number();

export const resourcesAnalyticsSchema: z.ZodMiniType<ResourcesAnalytics> = z.object({
  protectedResources: figure,
  totalResources: figure,
  totalBackupBytes: figure,
  protectionStatus: z.enum(["compliant", "unprotected"]),
  dataDynamics: z.object({
    currentCycleBytes: figure,
    lastCycleBytes: figure,
    changePercent: z.nullable(figure),
  }),
  emails: figure,
  files: figure,
});

export const alertSchema: z.ZodMiniType<Alert> = z.object({
  alertId: z.string(),
  createdAt: z.string(),
  kind: z.enum([
    "resources-added",
    "resources-removed",
    "backup-failed",
    "integrity-damaged",
    "storage",
    "billing",
    "drill-failed",
  ]),
  message: z.string(),
  read: z.boolean(),
});

export const alertsResponseSchema: z.ZodMiniType<AlertsResponse> = z.object({
  alerts: z.array(alertSchema),
  unread: z.number(),
});

/** POST …/alerts/mark-all-read. */
export const markAlertsReadResponseSchema = z.object({ marked: z.number() });

/** POST …/resources/sync: the resources the Workspace added and removed. */
export const syncResourcesResponseSchema = z.object({ added: z.number(), removed: z.number() });
export type SyncResourcesResponse = z.infer<typeof syncResourcesResponseSchema>;

export const regionSchema: z.ZodMiniType<Region> = z.object({
  id: z.string(),
  label: z.string(),
  location: z.string(),
  domain: z.string(),
});

/** GET /v1/regions. */
export const regionsResponseSchema: z.ZodMiniType<RegionsResponse> = z.object({
  regions: z.array(regionSchema),
});

/** An organisation as the installation answer names it (also the answer of POST /v1/organizations). */
export const organizationSummarySchema: z.ZodMiniType<OrganizationSummary> = z.object({
  organizationId: z.string(),
  subscriptions: z.array(z.object({ subscriptionId: z.string(), region: regionSchema })),
  plan: z.object({ name: z.string() }),
});

/** GET /v1/installation. */
export const installationResponseSchema: z.ZodMiniType<InstallationResponse> = z.object({
  isAdmin: z.boolean(),
  hasGWInstalled: z.boolean(),
  organizations: z.array(organizationSummarySchema),
  user: z.object({
    userId: z.string(),
    email: z.string(),
    displayName: nullableString,
    pictureUrl: nullableString,
    domain: nullableString,
    hasWorkspaceAccount: z.boolean(),
  }),
});

/** GET /v1/organizations/{organizationId}. */
export const organizationDetailsSchema: z.ZodMiniType<OrganizationDetails> = z.object({
  organizationId: z.string(),
  domain: z.string(),
  totalStorage: count,
  maximumStorage: count,
  plan: z.object({ name: z.string() }),
});

const subscriptionShape = {
  subscriptionId: z.string(),
  region: regionSchema,
  plan: z.object({
    id: z.string(),
    name: z.string(),
    premium: z.boolean(),
    maxUsers: z.nullable(z.number()),
    storagePerUserBytes: z.number(),
    backupsPerDay: z.number(),
    services: z.array(z.string()),
  }),
  renewalDate: z.string(),
  seats: z.object({ used: z.number(), total: z.nullable(z.number()) }),
  storage: z.object({ used: z.number(), maximum: z.number() }),
  autoAddStorage: z.boolean(),
  autoAddSeats: z.boolean(),
  seatOverage: z.nullable(
    z.object({
      over: z.number(),
      since: z.string(),
      stopsAt: z.string(),
      mailboxes: z.array(z.object({ resourceId: z.string(), email: z.nullable(z.string()) })),
    }),
  ),
};

export const subscriptionDetailsSchema: z.ZodMiniType<SubscriptionDetails> = z.object(subscriptionShape);

/** A subscription answer limited to the fields asked for (repeated `fields` query keys). */
const { subscriptionId, ...subscriptionParts } = subscriptionShape;
export const subscriptionViewSchema: z.ZodMiniType<SubscriptionView> = z.extend(
  z.partial(z.object(subscriptionParts)),
  { subscriptionId },
);

export const accessResponseSchema: z.ZodMiniType<AccessResponse> = z.object({
  services: z.array(
    z.object({
      service: z.enum(SERVICE_IDS),
      name: z.string(),
      inPlan: z.boolean(),
      backup: z.boolean(),
      restore: z.boolean(),
      missingScopes: z.array(z.string()),
      grant: nullableString,
    }),
  ),
  checkedAt: z.string(),
});
