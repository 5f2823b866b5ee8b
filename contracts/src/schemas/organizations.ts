import { z } from "zod";
import type {
  Alert,
  AlertsResponse,
  Resource,
  ResourcesAnalytics,
  ResourcesPage,
  SubscriptionDetails,
} from "../organizations";
import type { Region } from "../regions";
import { activeBackupSchema, backupFailureReasonSchema, serviceStatusSchema } from "./backups";
import { count, nullableString } from "./common";
import { resourceIntegritySchema } from "./integrity";

/** docs/requirements.md#data-the-console-shows resource. */
export const resourceSchema: z.ZodType<Resource> = z.object({
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
  activeBackup: activeBackupSchema.nullable(),
  lastBackupFailure: backupFailureReasonSchema.nullable(),
  /** A service never backed up is absent (and all are, from answers that predate services). */
  services: z
    .object({ gmail: serviceStatusSchema.optional(), drive: serviceStatusSchema.optional() })
    .default({}),
  lastVerifiedAt: nullableString,
  /** Absent or null: never verified. */
  integrity: resourceIntegritySchema.nullish().transform((integrity) => integrity ?? null),
});

export const resourcesPageSchema: z.ZodType<ResourcesPage> = z.object({
  resources: z.array(resourceSchema),
  total: count,
  page: count,
  pageSize: count,
});

const figure = z.number().finite();

export const resourcesAnalyticsSchema: z.ZodType<ResourcesAnalytics> = z.object({
  protectedResources: figure,
  totalResources: figure,
  totalBackupBytes: figure,
  protectionStatus: z.enum(["compliant", "unprotected"]),
  dataDynamics: z.object({
    currentCycleBytes: figure,
    lastCycleBytes: figure,
    changePercent: figure.nullable(),
  }),
  emails: figure,
  files: figure,
});

export const alertSchema: z.ZodType<Alert> = z.object({
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

export const alertsResponseSchema: z.ZodType<AlertsResponse> = z.object({
  alerts: z.array(alertSchema),
  unread: z.number(),
});

/** POST …/alerts/mark-all-read. */
export const markAlertsReadResponseSchema = z.object({ marked: z.number() });

/** POST …/resources/sync: the resources the Workspace added and removed. */
export const syncResourcesResponseSchema = z.object({ added: z.number(), removed: z.number() });
export type SyncResourcesResponse = z.infer<typeof syncResourcesResponseSchema>;

export const regionSchema: z.ZodType<Region> = z.object({
  id: z.string(),
  label: z.string(),
  location: z.string(),
  domain: z.string(),
});

export const subscriptionDetailsSchema: z.ZodType<SubscriptionDetails> = z.object({
  subscriptionId: z.string(),
  region: regionSchema,
  plan: z.object({
    id: z.string(),
    name: z.string(),
    premium: z.boolean(),
    maxUsers: z.number().nullable(),
    storagePerUserBytes: z.number(),
    backupsPerDay: z.number(),
    services: z.array(z.string()),
  }),
  renewalDate: z.string(),
  seats: z.object({ used: z.number(), total: z.number().nullable() }),
  storage: z.object({ used: z.number(), maximum: z.number() }),
  autoAddStorage: z.boolean(),
});
