/**
 * The API as component tests fake it: every route the web calls, each with the schema of its answer from
 * `@alpvault/contracts/schemas` (the one the web decodes it with, or the contract type's schema where the
 * web reads the answer without decoding). The fake API checks every answer a test gives against it before
 * sending it, so a fake cannot drift from the contract; a call to a route not listed here fails the test.
 */
import { z, type ZodMiniType } from "zod/mini";
import { activityResponseSchema, backupRunsPageSchema } from "@alpvault/contracts/schemas/activity";
import { auditChainVerificationSchema, auditPageSchema } from "@alpvault/contracts/schemas/audit";
import { backupNowResponseSchema } from "@alpvault/contracts/schemas/backups";
import {
  autoAddSeatsResponseSchema,
  autoAddStorageResponseSchema,
  checkoutResponseSchema,
  paymentSchema,
  plansResponseSchema,
} from "@alpvault/contracts/schemas/billing";
import {
  drillRunDetailSchema,
  drillRunSchema,
  drillRunsPageSchema,
  drillSettingsSchema,
} from "@alpvault/contracts/schemas/drills";
import { recoveryEstimateSchema } from "@alpvault/contracts/schemas/eta";
import { exportDownloadSchema, exportJobSchema, exportListSchema } from "@alpvault/contracts/schemas/exports";
import { healthResponseSchema } from "@alpvault/contracts/schemas/health";
import { integrityReportSchema, verifyRunSchema } from "@alpvault/contracts/schemas/integrity";
import {
  accessResponseSchema,
  alertsResponseSchema,
  installationResponseSchema,
  markAlertsReadResponseSchema,
  organizationDetailsSchema,
  organizationSummarySchema,
  regionsResponseSchema,
  resourceDetailSchema,
  resourcesAnalyticsSchema,
  resourcesPageSchema,
  subscriptionDetailsSchema,
  subscriptionViewSchema,
  syncResourcesResponseSchema,
} from "@alpvault/contracts/schemas/organizations";
import {
  assignPolicyResponseSchema,
  policiesResponseSchema,
  policySchema,
} from "@alpvault/contracts/schemas/policies";
import { recoveryListSchema, recoverySchema } from "@alpvault/contracts/schemas/recovery";
import { browseResponseSchema, searchResponseSchema } from "@alpvault/contracts/schemas/search";
import { secretResponseSchema, secretsResponseSchema } from "@alpvault/contracts/schemas/secrets";

/** A request as the fake API received it (the path without the `/v1` base, its parts decoded). */
export interface RecordedRequest {
  method: string;
  /** The host the call went to (the page's own, or a region's). */
  host: string;
  /** The path under `/v1`, as sent (encoded). */
  path: string;
  /** The route's `:name` parts, decoded. */
  params: Record<string, string>;
  /** Each query key with its values in order (repeated keys give several). */
  query: Record<string, string[]>;
  /** The JSON body, or undefined without one. */
  body: unknown;
  /** The JSON body's fields when it is an object (the terms of a search or browse), else none. */
  fields: Record<string, unknown>;
  headers: Record<string, string>;
}

/** A JSON answer checked against `schema` (or `schemaFor` the request, when it depends on it). */
interface JsonContract<T> {
  kind: "json";
  schema: ZodMiniType<T>;
  schemaFor?: (request: RecordedRequest) => ZodMiniType<unknown>;
}

/** Answers a file (a report): any text, sent with its content type. */
interface FileContract {
  kind: "file";
  contentType: string;
}

/** Answers 204 without a body. */
interface EmptyContract {
  kind: "empty";
}

export type RouteContract = JsonContract<unknown> | FileContract | EmptyContract;

const json = <T>(schema: ZodMiniType<T>, schemaFor?: JsonContract<T>["schemaFor"]): JsonContract<T> => ({
  kind: "json",
  schema,
  schemaFor,
});
const csv: FileContract = { kind: "file", contentType: "text/csv" };
const empty: EmptyContract = { kind: "empty" };

const ORGANIZATION = "/organizations/:organizationId";

/** Every route of the API the web calls, as "METHOD /path" with `:name` parts. */
export const API_CONTRACT = {
  "GET /installation": json(installationResponseSchema),
  "GET /regions": json(regionsResponseSchema),
  "GET /health": json(healthResponseSchema),
  "GET /plans": json(plansResponseSchema),
  "POST /organizations": json(organizationSummarySchema),
  [`GET ${ORGANIZATION}`]: json(organizationDetailsSchema),
  // The session asks for some fields only (repeated `fields` keys); billing asks for the whole subscription.
  [`GET ${ORGANIZATION}/subscriptions/:subscriptionId`]: json(subscriptionViewSchema, (request) =>
    (request.query.fields ?? []).length > 0 ? subscriptionViewSchema : subscriptionDetailsSchema,
  ),
  [`PUT ${ORGANIZATION}/settings/auto-add-storage`]: json(autoAddStorageResponseSchema),
  [`PUT ${ORGANIZATION}/settings/auto-add-seats`]: json(autoAddSeatsResponseSchema),
  [`POST ${ORGANIZATION}/checkout`]: json(checkoutResponseSchema),
  [`GET ${ORGANIZATION}/payments/:checkoutId`]: json(paymentSchema),
  [`GET ${ORGANIZATION}/activity`]: json(activityResponseSchema),
  [`GET ${ORGANIZATION}/audit-logs`]: json(auditPageSchema),
  [`GET ${ORGANIZATION}/audit-logs/verify`]: json(auditChainVerificationSchema),
  [`GET ${ORGANIZATION}/drills`]: json(drillSettingsSchema),
  [`PUT ${ORGANIZATION}/drills`]: json(drillSettingsSchema),
  [`GET ${ORGANIZATION}/drills/runs`]: json(drillRunsPageSchema),
  [`GET ${ORGANIZATION}/drills/runs/:drillRunId`]: json(drillRunDetailSchema),
  [`POST ${ORGANIZATION}/drills/run`]: json(drillRunSchema),
  [`GET ${ORGANIZATION}/integrity`]: json(integrityReportSchema),
  [`POST ${ORGANIZATION}/integrity/verify`]: json(verifyRunSchema),
  [`GET ${ORGANIZATION}/policies`]: json(policiesResponseSchema),
  [`POST ${ORGANIZATION}/policies`]: json(policySchema),
  [`PATCH ${ORGANIZATION}/policies/:policyId`]: json(policySchema),
  // The API answers the deleted policy's id (no contract type of its own).
  [`DELETE ${ORGANIZATION}/policies/:policyId`]: json(z.object({ policyId: z.string() })),
  [`POST ${ORGANIZATION}/policies/:policyId/assign`]: json(assignPolicyResponseSchema),
  [`POST ${ORGANIZATION}/recoveries/estimate`]: json(recoveryEstimateSchema),
  [`POST ${ORGANIZATION}/recoveries`]: json(recoverySchema),
  [`GET ${ORGANIZATION}/recoveries`]: json(recoveryListSchema),
  [`GET ${ORGANIZATION}/recoveries/:recoveryId`]: json(recoverySchema),
  [`GET ${ORGANIZATION}/recoveries/:recoveryId/report`]: csv,
  [`GET ${ORGANIZATION}/resources`]: json(resourcesPageSchema),
  [`POST ${ORGANIZATION}/resources/sync`]: json(syncResourcesResponseSchema),
  [`GET ${ORGANIZATION}/resources/:resourceId`]: json(resourceDetailSchema),
  [`POST ${ORGANIZATION}/resources/:resourceId/backups`]: json(backupNowResponseSchema),
  [`GET ${ORGANIZATION}/resources/:resourceId/runs`]: json(backupRunsPageSchema),
  [`POST ${ORGANIZATION}/resources/:resourceId/browse`]: json(browseResponseSchema),
  [`GET ${ORGANIZATION}/alerts`]: json(alertsResponseSchema),
  [`POST ${ORGANIZATION}/alerts/mark-all-read`]: json(markAlertsReadResponseSchema),
  [`GET ${ORGANIZATION}/analytics`]: json(resourcesAnalyticsSchema),
  [`GET ${ORGANIZATION}/access`]: json(accessResponseSchema),
  [`POST ${ORGANIZATION}/search`]: json(searchResponseSchema),
  [`GET ${ORGANIZATION}/exports`]: json(exportListSchema),
  [`POST ${ORGANIZATION}/exports`]: json(exportJobSchema),
  [`POST ${ORGANIZATION}/exports/:exportId/download`]: json(exportDownloadSchema),
  [`GET ${ORGANIZATION}/exports/:exportId/report`]: csv,
  [`GET ${ORGANIZATION}/secrets`]: json(secretsResponseSchema),
  [`POST ${ORGANIZATION}/secrets`]: json(secretResponseSchema),
  [`PATCH ${ORGANIZATION}/secrets/:secretId`]: json(secretResponseSchema),
  [`DELETE ${ORGANIZATION}/secrets/:secretId`]: empty,
  [`POST ${ORGANIZATION}/secrets/:secretId/default`]: json(secretsResponseSchema),
  [`POST ${ORGANIZATION}/secrets/:secretId:check`]: json(secretResponseSchema),
} as const satisfies Record<string, RouteContract>;

export type ApiRoute = keyof typeof API_CONTRACT;

/** What a route answers on success: its contract type, a file's text, or nothing. */
export type AnswerOf<R extends ApiRoute> =
  (typeof API_CONTRACT)[R] extends JsonContract<infer T>
    ? T
    : (typeof API_CONTRACT)[R] extends FileContract
      ? string
      : undefined;

/** The `{code, message}` every failed call answers (docs/requirements.md#errors-and-messages). */
export const errorAnswerSchema = z.object({ code: z.int().check(z.minimum(400)), message: z.string() });
