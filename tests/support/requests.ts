/**
 * Valid request bodies of the API's routes, keyed by the route table's `METHOD path`: suites that walk the
 * route table (hostile input, tenant matrix) start from these, so a refusal is about what they change.
 */
import type { PolicyInput } from "@alpvault/contracts/policies";
import { stackEnv } from "./stack-env";

export const SAMPLE_POLICY: PolicyInput = {
  name: "Sample",
  dataTypes: ["emails", "drive"],
  frequency: 1,
  schedule: "weekdays",
  days: [],
  retentionDays: 30,
  archiving: false,
};

/** `resources`: two resources of the organisation the body is for (source and target of a recovery). */
export function validBodies(resources: readonly [string, string]): Record<string, Record<string, unknown>> {
  const organization = "/v1/organizations/:organizationId";
  const recovery = {
    resourceId: resources[0],
    service: "gmail",
    location: "other",
    targetResourceId: resources[1],
    method: "folder",
    folderName: "Recovered",
    permissions: false,
  };
  return {
    [`POST ${organization}/recoveries`]: recovery,
    // The estimate takes exactly the body of the recovery it estimates.
    [`POST ${organization}/recoveries/estimate`]: { ...recovery },
    [`POST ${organization}/exports/mbox`]: { resourceId: resources[0], service: "gmail" },
    [`POST ${organization}/exports/zip`]: { resourceId: resources[0], service: "drive" },
    [`POST ${organization}/exports`]: { resourceId: resources[0], service: "gmail", format: "mbox" },
    [`POST ${organization}/integrity/verify`]: { resourceId: resources[0] },
    [`POST ${organization}/search`]: {
      service: "gmail",
      resource: resources[0],
      keyword: "budget",
      pageSize: 5,
    },
    [`POST ${organization}/resources/:resourceId/browse`]: {
      service: "gmail",
      date: "01-01-2026",
      pageSize: 5,
    },
    [`POST ${organization}/policies`]: { ...SAMPLE_POLICY },
    [`PATCH ${organization}/policies/:policyId`]: { retentionDays: 1 },
    [`POST ${organization}/policies/:policyId/assign`]: { resourceIds: [...resources] },
    [`POST ${organization}/secrets`]: {
      description: "Sample key",
      kmsResourceName: "projects/p/locations/global/keyRings/r/cryptoKeys/k",
    },
    [`PATCH ${organization}/secrets/:secretId`]: { description: "Sample key" },
    [`POST ${organization}/checkout`]: {
      purchase: { kind: "storage", packs: 1 },
      returnUrl: `${stackEnv.webUrl}/plans`,
    },
    [`PUT ${organization}/settings/auto-add-storage`]: { enabled: true },
    [`PUT ${organization}/settings/auto-add-seats`]: { enabled: false },
    [`PUT ${organization}/drills`]: {
      enabled: false,
      sandboxResourceId: resources[1],
      sampleSize: 5,
      schedule: "weekly",
    },
    ["POST /v1/organizations"]: { regionId: "ch" },
  };
}

/**
 * The JSON body of a search or browse (their terms travel in the body, docs/api.md) from the terms written
 * as a query string or its pairs: a repeated name gives an array (which the API refuses), and `page` and
 * `pageSize` written as digits are numbers, as the console sends them.
 */
export function termsBody(terms: string | Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(terms)) {
    const given = (name === "page" || name === "pageSize") && /^\d+$/.test(value) ? Number(value) : value;
    const earlier = body[name];
    body[name] = earlier === undefined ? given : [...(Array.isArray(earlier) ? earlier : [earlier]), given];
  }
  return body;
}
