/**
 * Backup policies (docs/requirements.md#data-the-console-shows policy, #validation validation, #who-may-do-what plan rules, #errors-and-messages delete conflict): the fields and
 * every text the API and the web form show. The form's rules are in `policy-request.ts`.
 */
import { PLANS, PLAN_ORDER, type PlanId } from "./plans";

/**
 * docs/requirements.md#data-the-console-shows data types. Emails, drive, contacts and calendars are backed up
 * (contacts and calendars on the plans that include them); chats and directory are shown as coming soon.
 */
export const DATA_TYPES = ["emails", "drive", "chats", "contacts", "calendars", "directory"] as const;
export type DataType = (typeof DATA_TYPES)[number];
export const AVAILABLE_DATA_TYPES: readonly DataType[] = ["emails", "drive", "contacts", "calendars"];
export const COMING_SOON_DATA_TYPES: readonly DataType[] = ["chats", "directory"];

/** The service that backs up each data type (the plans' `services`). */
export const DATA_TYPE_SERVICES = {
  emails: "gmail",
  drive: "drive",
  chats: "chat",
  contacts: "contacts",
  calendars: "calendars",
  directory: "directory",
} as const;
export type BackupService = (typeof DATA_TYPE_SERVICES)[DataType];

/** docs/requirements.md#constants-and-limits: backups per day. */
export const FREQUENCIES = [1, 3, 24] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** The lowest plan that allows each frequency (docs/requirements.md#who-may-do-what: 3 per day needs Geneva, 24 needs Zürich). */
export const FREQUENCY_PLAN: Record<Frequency, PlanId> = { 1: "matterhorn", 3: "geneva", 24: "zurich" };

export function planAllowsFrequency(planId: PlanId, frequency: Frequency): boolean {
  return PLAN_ORDER.indexOf(planId) >= PLAN_ORDER.indexOf(FREQUENCY_PLAN[frequency]);
}

/** Whether the plan's services include what the data type backs up (Gmail and Drive on every plan, the rest on Zürich). */
export function planAllowsDataType(planId: PlanId, type: DataType): boolean {
  return PLANS[planId].services.includes(DATA_TYPE_SERVICES[type]);
}

/** docs/requirements.md#data-the-console-shows schedule: none, every day, weekdays, weekends, or chosen days (`days`). */
export const SCHEDULES = ["none", "every-day", "weekdays", "weekends", "days"] as const;
export type Schedule = (typeof SCHEDULES)[number];

export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Retention choices offered by the form, in days (the API accepts any whole number in range). */
export const RETENTION_CHOICES = [7, 30, 90, 180, 365, 1095, 2555] as const;
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;
export const MAX_POLICY_NAME = 80;

/** The id of the policy every organisation has (created on first use, cannot be deleted). */
export const DEFAULT_POLICY_ID = "default";

/** Most resources one assign call takes (the UI assigns at most one page of 100). */
export const MAX_ASSIGN_RESOURCES = 200;

export const POLICY_MESSAGES = {
  nameRequired: "Please provide a policy name",
  nameTooLong: `The policy name can have at most ${MAX_POLICY_NAME} characters`,
  dataTypesRequired: "Please select at least one data type",
  dataTypeComingSoon:
    "Chats and directory backups are coming soon: choose emails, drive, contacts or calendars",
  dataTypeUnknown: "Unknown data type: choose emails, drive, contacts or calendars",
  dataTypePlan: "Contacts and calendars backups need the Zürich plan. Upgrade your plan to back them up.",
  frequencyRequired: "Please specify a backup frequency",
  scheduleRequired: "Please specify a backup schedule",
  retentionRequired: "Please specify a retention period",
  retentionRange: `Retention must be a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}`,
  archivingRequired: "Please say whether deleted items are archived",
  unknownField: "Unknown policy field",
  invalidBody: "The policy must be a JSON object",
  freePlan:
    "The free plan cannot create, edit or delete backup policies. Upgrade your plan to manage policies.",
  frequency3: "3 backups per day need the Geneva or Zürich plan. Upgrade your plan to use this frequency.",
  frequency24: "24 backups per day need the Zürich plan. Upgrade your plan to use this frequency.",
  inUse: "Policy can not be deleted as it has resources already in use. Please reassign them and try again.",
  defaultUndeletable: "The default policy can not be deleted: every organisation keeps one.",
  notFound: "Policy not found",
  resourceIdsRequired: "Please select at least one resource",
  tooManyResources: `A policy can be assigned to at most ${MAX_ASSIGN_RESOURCES} resources at a time`,
  resourcesNotFound: "Some of the selected resources were not found. Reload the list and try again.",
} as const;

/** The text of the plan rule a frequency breaks on `planId`, or null when the plan allows it. */
export function frequencyDenial(planId: PlanId, frequency: Frequency): string | null {
  if (planAllowsFrequency(planId, frequency)) return null;
  return frequency === 24 ? POLICY_MESSAGES.frequency24 : POLICY_MESSAGES.frequency3;
}

/** The text of the plan rule a data type of the list breaks on `planId`, or null when the plan includes them all. */
export function dataTypeDenial(planId: PlanId, dataTypes: readonly DataType[]): string | null {
  return dataTypes.every((type) => planAllowsDataType(planId, type)) ? null : POLICY_MESSAGES.dataTypePlan;
}

/** The first plan rule the policy breaks on `planId` (its frequency, then its data types), or null. */
export function policyPlanDenial(
  planId: PlanId,
  policy: Pick<PolicyInput, "frequency" | "dataTypes">,
): string | null {
  return frequencyDenial(planId, policy.frequency) ?? dataTypeDenial(planId, policy.dataTypes);
}

/** What an admin sets on a policy (POST body; PATCH takes any part of it). */
export interface PolicyInput {
  name: string;
  dataTypes: DataType[];
  frequency: Frequency;
  schedule: Schedule;
  /** The chosen days when `schedule` is "days"; empty otherwise. */
  days: Weekday[];
  retentionDays: number;
  /** Keep items deleted in Google Workspace after the retention period ends. */
  archiving: boolean;
}

/** A policy as the API answers it. */
export interface Policy extends PolicyInput {
  policyId: string;
  isDefault: boolean;
  /** The services the data types are backed up from (derived from `dataTypes`). */
  services: BackupService[];
  /** The lowest plan this policy runs on (derived from `frequency`). */
  plan: PlanId;
  /** Resources assigned to the policy. */
  resourceCount: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /v1/organizations/{id}/policies: the policies (default first) and the organisation's plan. */
export interface PoliciesResponse {
  policies: Policy[];
  planId: PlanId;
}

/** POST /v1/organizations/{id}/policies/{policyId}/assign */
export interface AssignPolicyRequest {
  resourceIds: string[];
}

export interface AssignPolicyResponse {
  policyId: string;
  assigned: number;
  /** Pending backup runs after the call (one per resource; an existing pending run is reused). */
  backupsQueued: number;
}

/** Derived fields of a policy. */
export function servicesOf(dataTypes: readonly DataType[]): BackupService[] {
  return DATA_TYPES.filter((type) => dataTypes.includes(type)).map((type) => DATA_TYPE_SERVICES[type]);
}

/** The default policy's settings (every organisation has it). */
export const DEFAULT_POLICY: PolicyInput = {
  name: "Default policy",
  dataTypes: ["emails", "drive"],
  frequency: 1,
  schedule: "every-day",
  days: [],
  retentionDays: 30,
  archiving: false,
};
