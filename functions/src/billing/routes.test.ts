import { logger } from "firebase-functions";
import request from "supertest";
import Stripe from "stripe";
import { BILLING_MESSAGES, LOCAL_WEBHOOK_SECRET } from "@alpvault/contracts/billing";
import { createApi } from "../http/app";
import type { OrganizationService } from "../organizations/service";
import { billingPublicRoutes, billingRoutes } from "./routes";
import { billingService } from "./service";

beforeEach(() => {
  for (const level of ["info", "warn"] as const)
    jest.spyOn(logger, level).mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

/** The billing routers in-process: no Firestore is reached by these requests. */
function app() {
  const service = billingService({
    organizations: {} as OrganizationService,
    servingRegion: "ch",
    regionApiUrl: (regionId) => `https://${regionId}.api.example.test/v1`,
    provider: {
      createCheckout: () => Promise.reject(new Error("not used")),
      applyCharge: () => Promise.reject(new Error("not used")),
      cancelSubscription: () => Promise.reject(new Error("not used")),
    },
    webhookSecret: () => LOCAL_WEBHOOK_SECRET,
    gracefulPeriodDays: 14,
    sandbox: false,
  });
  return createApi({
    identity: { verifyIdToken: () => Promise.reject(new Error("no identity here")) },
    appCheck: { verifyAppCheckToken: () => Promise.reject(new Error("no app check here")) },
    publicRouters: [billingPublicRoutes(() => service)],
    routers: [billingRoutes(() => service)],
    onRefused: () => Promise.resolve(),
  });
}

test("when the webhook is called without sign-in, then its signature on the raw body decides: a valid one is accepted, a bad one is a 400 {code, message}", async () => {
  const payload = JSON.stringify({
    id: "evt_1",
    object: "event",
    type: "customer.created",
    data: { object: {} },
  });
  const accepted = await request(app())
    .post("/v1/payments/webhook")
    .set("content-type", "application/json")
    .set(
      "stripe-signature",
      Stripe.webhooks.generateTestHeaderString({ payload, secret: LOCAL_WEBHOOK_SECRET }),
    )
    .send(payload);
  expect(accepted.status).toBe(200);
  expect(accepted.body).toEqual({ received: true, duplicate: false, ignored: true });

  // The same event with one byte changed after signing.
  const tampered = await request(app())
    .post("/v1/payments/webhook")
    .set("content-type", "application/json")
    .set(
      "stripe-signature",
      Stripe.webhooks.generateTestHeaderString({ payload, secret: LOCAL_WEBHOOK_SECRET }),
    )
    .send(payload.replace("customer.created", "customer.createe"));
  expect(tampered.status).toBe(400);
  expect(tampered.body).toEqual({ code: 400, message: BILLING_MESSAGES.invalidSignature });
});

test("when the sandbox page is asked for outside emulator mode, then it does not exist; the other billing routes still need sign-in", async () => {
  expect((await request(app()).get("/v1/payments/sandbox/cs_1")).status).toBe(404);
  expect((await request(app()).get("/v1/plans")).status).toBe(401);
  expect((await request(app()).post("/v1/organizations/org-1/checkout").send({})).status).toBe(401);
});
