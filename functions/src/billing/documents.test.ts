/**
 * Payments, charges and the sandbox provider's checkouts and subscriptions as the billing repository
 * writes them decode and read back as written; a charge that does not decode is left out (and stays
 * pending), a payment that does not decode fails its read with its kind and path.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { tenantDb } from "../lib/tenancy";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import {
  applySandboxCharge,
  cancelSandboxSubscription,
  createChargeIn,
  createPayment,
  markChargeFailed,
  markChargeSent,
  pendingCharges,
  readPayment,
  readPaymentIn,
  readSandboxCheckout,
  recordPaymentEvent,
  recordSandboxOutcome,
  saveSandboxCheckout,
  sentCharges,
  startSandboxSubscription,
  updatePaymentState,
} from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const NOW = new Date("2026-03-01T10:00:00.000Z");
const at = NOW.toISOString();
const seats = { name: "Geneva seats", quantity: 5, unitAmountUsd: 4 };

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test("when a checkout is paid, then its payment and the sandbox's checkout read back as written", async () => {
  const payment = {
    checkoutId: "cs_sandbox_1",
    state: "open" as const,
    purchase: { kind: "upgrade" as const, planId: "geneva" as const, seats: 5 },
    amountUsd: 20,
    createdAt: at,
    updatedAt: at,
    actor: "admin@example.test",
  };
  await createPayment(scope, payment);
  await tenantDb(scope).runTransaction(async (transaction) => {
    recordPaymentEvent(
      transaction,
      scope,
      { eventId: "evt_1", type: "checkout.session.completed", checkoutId: "cs_sandbox_1" },
      NOW,
    );
    updatePaymentState(transaction, scope, "cs_sandbox_1", "paid", NOW);
  });
  expect(await readPayment(scope, "cs_sandbox_1")).toEqual({ ...payment, state: "paid" });
  expect(
    await tenantDb(scope).runTransaction((transaction) => readPaymentIn(transaction, scope, "cs_sandbox_1")),
  ).toEqual({ ...payment, state: "paid" });

  const checkout = {
    checkoutId: "cs_sandbox_1",
    organizationId: "org-1",
    items: [seats],
    metadata: { organizationId: "org-1" },
    successUrl: "https://console.example.test/plans?paid",
    cancelUrl: "https://console.example.test/plans",
    createdAt: at,
    outcome: null,
  };
  await saveSandboxCheckout(checkout);
  expect(await recordSandboxOutcome("cs_sandbox_1", "paid")).toBe(true);
  expect(await recordSandboxOutcome("cs_sandbox_1", "failed")).toBe(false);
  expect(await readSandboxCheckout("cs_sandbox_1")).toEqual({ ...checkout, outcome: "paid" });
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when seats are added automatically, then the charge and the subscription it raises read back as written", async () => {
  await startSandboxSubscription({ subscriptionId: "sub_1", organizationId: "org-1", items: [seats] }, NOW);
  await tenantDb(scope).runTransaction(async (transaction) =>
    createChargeIn(transaction, scope, { kind: "seats", item: { ...seats, quantity: 2 } }, NOW),
  );
  const [pending] = await pendingCharges(scope);
  expect(pending).toMatchObject({
    kind: "seats",
    state: "pending",
    createdAt: at,
    attempts: 0,
    lastError: null,
  });
  await markChargeFailed(scope, pending!.chargeId, "api_connection_error", NOW);
  expect(await pendingCharges(scope)).toEqual([
    { ...pending, attempts: 1, lastError: "api_connection_error" },
  ]);
  await applySandboxCharge("sub_1", pending!.chargeId, pending!.item);
  await markChargeSent(scope, pending!.chargeId, "sub_1", NOW);
  expect(await sentCharges(scope, "sub_1")).toEqual([
    { ...pending, state: "sent", attempts: 1, lastError: null },
  ]);
  await cancelSandboxSubscription("sub_1", NOW);
  await expect(applySandboxCharge("sub_1", "another", seats)).rejects.toThrow("canceled subscription");
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when a charge or a payment does not decode, then the charge stays out of the list and the payment's read fails", async () => {
  const organization = regionDb("region-ch").collection("organizations").doc("org-1");
  await organization
    .collection("billingCharges")
    .doc("broken")
    .set({ kind: "seats", state: "pending", item: {} });
  await organization
    .collection("payments")
    .doc("cs_broken")
    .set({ state: "paid", purchase: { kind: "upgrade" } });
  expect((await pendingCharges(scope)).map((charge) => charge.chargeId)).not.toContain("broken");
  await expect(readPayment(scope, "cs_broken")).rejects.toMatchObject({
    kind: "payment",
    path: "organizations/org-1/payments/cs_broken",
  });
});
