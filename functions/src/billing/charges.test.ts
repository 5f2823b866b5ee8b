/**
 * Sending automatic additions to the payment provider (`charges.ts`): in order, each once, kept pending
 * with the error's type when the provider refuses, and kept for later without a subscription. The
 * charges' store is replaced by an in-memory one; the API test against the sandbox provider covers
 * Firestore and the dispatcher.
 */
import type { SubscriptionCharge } from "./provider";
import * as repo from "./repo";
import { seatCharge, sendCharges, storageCharge } from "./charges";

const NOW = new Date("2026-11-28T12:00:00Z");
const SCOPE = { organizationId: "org-1", regionId: "ch" as const };

function pendingStore(...drafts: ReturnType<typeof seatCharge>[]) {
  const charges: repo.ChargeRecord[] = drafts.map((draft, index) => ({
    ...draft,
    chargeId: `charge-${index + 1}`,
    state: "pending",
    createdAt: new Date(NOW.getTime() + index).toISOString(),
    attempts: 0,
    lastError: null,
  }));
  jest
    .spyOn(repo, "pendingCharges")
    .mockImplementation(async () => charges.filter((charge) => charge.state === "pending"));
  jest.spyOn(repo, "markChargeSent").mockImplementation(async (_scope, chargeId) => {
    charges.find((charge) => charge.chargeId === chargeId)!.state = "sent";
  });
  jest.spyOn(repo, "markChargeFailed").mockImplementation(async (_scope, chargeId, reason) => {
    const charge = charges.find((candidate) => candidate.chargeId === chargeId)!;
    charge.attempts += 1;
    charge.lastError = reason;
  });
  return charges;
}

afterEach(() => jest.restoreAllMocks());

test("when an organisation has a subscription, then its pending charges are applied to it in order, each once", async () => {
  const charges = pendingStore(seatCharge("geneva", 2), storageCharge(1));
  const applied: SubscriptionCharge[] = [];
  const provider = { applyCharge: async (charge: SubscriptionCharge) => void applied.push(charge) };
  const organization = { ...SCOPE, billingSubscriptionId: "sub_1" };

  expect(await sendCharges(organization, provider, NOW)).toEqual({ sent: 2, pending: 0, failed: false });
  expect(applied).toEqual([
    {
      subscriptionId: "sub_1",
      chargeId: "charge-1",
      item: { name: "Geneva seat", quantity: 2, unitAmountUsd: 3 },
    },
    {
      subscriptionId: "sub_1",
      chargeId: "charge-2",
      item: { name: "Storage pack (100 GB)", quantity: 1, unitAmountUsd: 3 },
    },
  ]);
  expect(charges.map((charge) => charge.state)).toEqual(["sent", "sent"]);
  // The next run finds nothing to send.
  expect(await sendCharges(organization, provider, NOW)).toEqual({ sent: 0, pending: 0, failed: false });
  expect(applied).toHaveLength(2);
});

test("when the provider refuses a charge, then it and those after it stay pending with the error's type, and the next run sends them", async () => {
  const charges = pendingStore(seatCharge("zurich", 1), seatCharge("zurich", 3));
  const refusal = Object.assign(new Error("No such subscription: 'sub_1' (a customer's words)"), {
    type: "StripeInvalidRequestError",
  });
  const refusing = { applyCharge: () => Promise.reject(refusal) };
  const organization = { ...SCOPE, billingSubscriptionId: "sub_1" };

  expect(await sendCharges(organization, refusing, NOW)).toEqual({ sent: 0, pending: 2, failed: true });
  expect(charges.map(({ state, attempts, lastError }) => ({ state, attempts, lastError }))).toEqual([
    { state: "pending", attempts: 1, lastError: "StripeInvalidRequestError" },
    { state: "pending", attempts: 0, lastError: null },
  ]);

  const applied: string[] = [];
  const answering = { applyCharge: async (charge: SubscriptionCharge) => void applied.push(charge.chargeId) };
  expect(await sendCharges(organization, answering, NOW)).toEqual({ sent: 2, pending: 0, failed: false });
  expect(applied).toEqual(["charge-1", "charge-2"]);
});

test("when an organisation has no subscription yet, then its charges wait, untried", async () => {
  const charges = pendingStore(storageCharge(2));
  const provider = { applyCharge: jest.fn(() => Promise.resolve()) };

  expect(await sendCharges({ ...SCOPE, billingSubscriptionId: null }, provider, NOW)).toEqual({
    sent: 0,
    pending: 0,
    failed: false,
  });
  expect(repo.pendingCharges).not.toHaveBeenCalled();
  expect(provider.applyCharge).not.toHaveBeenCalled();
  expect(charges[0]).toMatchObject({ state: "pending", attempts: 0 });
});
