import express, { type Router, type Request } from "express";
import { apiRouter } from "../http/api-router";
import { BILLING_MESSAGES } from "@alpvault/contracts/billing";
import { DomainError } from "../lib/errors";
import { callerOf } from "../http/authenticate";
import { isSandboxOutcome } from "./sandbox-provider";
import type { BillingService } from "./service";

/** Plans, checkout, payment state and the auto-add-storage and auto-add-seats settings (admins of the organisation only). */
export function billingRoutes(service: () => BillingService): Router {
  const router = apiRouter();
  const base = "/organizations/:organizationId";

  router.get("/plans", (_request, response) => {
    response.json(service().plans());
  });

  router.post(`${base}/checkout`, async (request, response) => {
    const answer = await service().checkout(callerOf(response), request.params.organizationId, request.body);
    response.status(201).json(answer);
  });

  router.get(`${base}/payments/:checkoutId`, async (request, response) => {
    const { organizationId, checkoutId } = request.params;
    response.json(await service().payment(callerOf(response), organizationId, checkoutId));
  });

  router.put(`${base}/settings/auto-add-storage`, async (request, response) => {
    response.json(
      await service().setAutoAddStorage(callerOf(response), request.params.organizationId, request.body),
    );
  });

  router.put(`${base}/settings/auto-add-seats`, async (request, response) => {
    response.json(
      await service().setAutoAddSeats(callerOf(response), request.params.organizationId, request.body),
    );
  });

  return router;
}

/** The request's body exactly as it arrived (the Functions runtime keeps it as `rawBody`). */
function rawBodyOf(request: Request): Buffer | undefined {
  const raw = (request as Request & { rawBody?: unknown }).rawBody;
  if (Buffer.isBuffer(raw)) return raw;
  return Buffer.isBuffer(request.body) ? request.body : undefined;
}

function outcomeOf(request: Request): unknown {
  const body: unknown = request.body;
  if (typeof body === "object" && body !== null && !Buffer.isBuffer(body)) {
    return (body as { outcome?: unknown }).outcome;
  }
  const raw = rawBodyOf(request);
  return raw ? new URLSearchParams(raw.toString("utf8")).get("outcome") : undefined;
}

/**
 * Routes without Firebase sign-in or App Check: the payment provider's webhook (checked by its signature
 * on the raw body) and, in emulator mode, the sandbox provider's checkout page.
 */
export function billingPublicRoutes(service: () => BillingService): Router {
  const router = apiRouter();

  router.post("/payments/webhook", express.raw({ type: "application/json" }), async (request, response) => {
    const signature = request.get("stripe-signature");
    response.json(await service().handleWebhook(rawBodyOf(request), signature));
  });

  router.get("/payments/sandbox/:checkoutId", async (request, response) => {
    const page = await service().sandboxPage(request.params.checkoutId);
    response.type("html").set("Cache-Control", "no-store").send(page);
  });

  router.post(
    "/payments/sandbox/:checkoutId",
    express.urlencoded({ extended: false }),
    async (request, response) => {
      const outcome = outcomeOf(request);
      if (!isSandboxOutcome(outcome)) throw DomainError.invalid(BILLING_MESSAGES.invalidOutcome);
      response.redirect(303, await service().sandboxChoose(request.params.checkoutId, outcome));
    },
  );

  return router;
}
