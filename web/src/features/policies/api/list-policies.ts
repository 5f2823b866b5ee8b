import {
  DATA_TYPES,
  FREQUENCIES,
  SCHEDULES,
  WEEKDAYS,
  type PoliciesResponse,
  type Policy,
} from "@alpvault/contracts/policies";
import type { PlanId } from "@alpvault/contracts/plans";
import { asFields, isString, unexpectedAnswer } from "@/lib/decode";
import { api } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

const PLAN_IDS: readonly PlanId[] = ["matterhorn", "geneva", "zurich"];

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;
const includes = <T>(allowed: readonly T[], value: unknown): value is T =>
  (allowed as readonly unknown[]).includes(value);
const listOf = <T>(allowed: readonly T[], value: unknown): value is T[] =>
  Array.isArray(value) && value.every((item) => includes(allowed, item));

/** Decodes one policy of an answer; anything else is an unexpected answer. */
export function decodePolicy(value: unknown): Policy {
  const p = asFields(value);
  if (
    isString(p.policyId) &&
    isString(p.name) &&
    listOf(DATA_TYPES, p.dataTypes) &&
    includes(FREQUENCIES, p.frequency) &&
    includes(SCHEDULES, p.schedule) &&
    listOf(WEEKDAYS, p.days) &&
    isCount(p.retentionDays) &&
    typeof p.archiving === "boolean" &&
    typeof p.isDefault === "boolean" &&
    Array.isArray(p.services) &&
    p.services.every(isString) &&
    includes(PLAN_IDS, p.plan) &&
    isCount(p.resourceCount) &&
    isString(p.createdAt) &&
    isString(p.updatedAt)
  ) {
    return {
      policyId: p.policyId,
      name: p.name,
      dataTypes: p.dataTypes,
      frequency: p.frequency,
      schedule: p.schedule,
      days: p.days,
      retentionDays: p.retentionDays,
      archiving: p.archiving,
      isDefault: p.isDefault,
      services: p.services as Policy["services"],
      plan: p.plan,
      resourceCount: p.resourceCount,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    };
  }
  return unexpectedAnswer();
}

export function decodePolicies(value: unknown): PoliciesResponse {
  const v = asFields(value);
  if (Array.isArray(v.policies) && includes(PLAN_IDS, v.planId)) {
    return { policies: v.policies.map(decodePolicy), planId: v.planId };
  }
  return unexpectedAnswer();
}

/** `GET /v1/organizations/{id}/policies`: every policy (default first) and the organisation's plan. */
export async function listPolicies(organizationId: string, signal?: AbortSignal): Promise<PoliciesResponse> {
  return decodePolicies(
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/policies`, { signal }),
  );
}

/** The query keys of the organisation's policies (a change to a policy invalidates them). */
export const policiesKeys = {
  all: (organizationId: string | null) => ["policies", organizationId] as const,
};

export function usePolicies(organizationId: string | null) {
  return useQuery({
    queryKey: policiesKeys.all(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => listPolicies(organizationId, signal),
    placeholderData: keepPreviousData,
  });
}
