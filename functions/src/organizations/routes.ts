import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import type { CreateOrganizationRequest, RegionsResponse } from "@alpvault/contracts/organizations";
import {
  ORGANIZATION_MESSAGES,
  SUBSCRIPTION_FIELDS,
  type SubscriptionField,
} from "@alpvault/contracts/organizations";
import { callerOf } from "../http/authenticate";
import { DomainError } from "../lib/errors";
import type { OrganizationService } from "./service";

function createRequest(body: unknown): CreateOrganizationRequest {
  const regionId = (body as { regionId?: unknown } | undefined)?.regionId;
  if (typeof regionId !== "string") throw DomainError.invalid(ORGANIZATION_MESSAGES.invalidRegion);
  return { regionId } as CreateOrganizationRequest;
}

/** `fields` as repeated query keys (docs/requirements.md#calls-the-web-makes: array query parameters), each one of SUBSCRIPTION_FIELDS. */
function subscriptionFields(query: unknown): SubscriptionField[] {
  if (query === undefined) return [];
  const values = Array.isArray(query) ? (query as unknown[]) : [query];
  return values.map((value) => {
    if (typeof value !== "string" || !(SUBSCRIPTION_FIELDS as readonly string[]).includes(value)) {
      throw DomainError.invalid(ORGANIZATION_MESSAGES.unknownSubscriptionField);
    }
    return value as SubscriptionField;
  });
}

/** docs/requirements.md#calls-the-web-makes: regions, installation, organisation details and subscription; the region choice. */
export function organizationRoutes(service: () => OrganizationService): Router {
  const router = apiRouter();

  router.get("/regions", (_request, response) => {
    const body: RegionsResponse = { regions: service().regions() };
    response.json(body);
  });

  router.get("/installation", async (_request, response) => {
    response.json(await service().installation(callerOf(response)));
  });

  router.post("/organizations", async (request, response) => {
    const { organization, created } = await service().createOrganization(
      callerOf(response),
      createRequest(request.body),
    );
    response.status(created ? 201 : 200).json(organization);
  });

  router.get("/organizations/:organizationId", async (request, response) => {
    response.json(await service().details(callerOf(response), request.params.organizationId));
  });

  router.get("/organizations/:organizationId/access", async (request, response) => {
    response.json(await service().access(callerOf(response), request.params.organizationId));
  });

  router.get("/organizations/:organizationId/subscriptions/:subscriptionId", async (request, response) => {
    const { organizationId, subscriptionId } = request.params;
    const fields = subscriptionFields(request.query.fields);
    response.json(await service().subscription(callerOf(response), organizationId, subscriptionId, fields));
  });

  return router;
}
