/**
 * Sending automatic additions to the payment provider (`charges.ts`): in order, each once, kept pending
 * with the error's type when the provider refuses, and kept for later without a subscription; a replaced
 * plan's subscription cancelled first (its automatic packs moved), seat charges older than the plan dropped. The
 * charges' store is replaced by an in-memory one; the API test against the sandbox provider covers
 * Firestore and the dispatcher.
 */
import type { SubscriptionCharge } from "./provider";
import { INITIAL_ACCOUNT } from "../organizations/repo";
import * as changes from "./changes";
import * as repo from "./repo";
import { seatCharge, sendCharges, storageCharge } from "./charges";

// Plain copies of the modules, so that their functions can be replaced one by one (jest.spyOn).
jest.mock("./repo", () => ({ __esModule: true, ...jest.requireActual<object>("./repo") }));
jest.mock("./changes", () => ({ __esModule: true, ...jest.requireActual<object>("./changes") }));

const NOW = new Date("2026-11-28T12:00:00Z");
const SCOPE = { organizationId: "org-1", regionId: "ch" as const };
/** An organisation whose plan was paid with subscription sub_1 before the charges were recorded. */
const PAID = {
  ...SCOPE,
  billingSubscriptionId: "sub_1",
  billingSubscriptionSince: "2026-11-01T00:00:00.000Z",
  replacedSubscriptions: [] as string[],
};

function pendingStore(...drafts: (ReturnType<typeof seatCharge> & { createdAt?: string })[]) {
  const charges: repo.ChargeRecord[] = drafts.map((draft, index) => ({
    chargeId: `charge-${index + 1}`,
    state: "pending",
    createdAt: new Date(NOW.getTime() + index).toISOString(),
    ...draft,
    attempts: 0,
    lastError: null,
  }));
  jest
    .spyOn(repo, "pendingCharges")
    .mockImplementation(async () => charges.filter((charge) => charge.state === "pending"));
  jest.spyOn(repo, "markChargeSent").mockImplementation(async (_scope, chargeId) => {
    charges.find((charge) => charge.chargeId === chargeId)!.state = "sent";
  });
  jest.spyOn(repo, "markChargeSuperseded").mockImplementation(async (_scope, chargeId) => {
    charges.find((charge) => charge.chargeId === chargeId)!.state = "superseded";
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
  const provider = {
    applyCharge: async (charge: SubscriptionCharge) => void applied.push(charge),
    cancelSubscription: () => Promise.reject(new Error("none replaced")),
  };
  const organization = PAID;

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
  const refusing = {
    applyCharge: () => Promise.reject(refusal),
    cancelSubscription: () => Promise.resolve(),
  };
  const organization = PAID;

  expect(await sendCharges(organization, refusing, NOW)).toEqual({ sent: 0, pending: 2, failed: true });
  expect(charges.map(({ state, attempts, lastError }) => ({ state, attempts, lastError }))).toEqual([
    { state: "pending", attempts: 1, lastError: "StripeInvalidRequestError" },
    { state: "pending", attempts: 0, lastError: null },
  ]);

  const applied: string[] = [];
  const answering = {
    applyCharge: async (charge: SubscriptionCharge) => void applied.push(charge.chargeId),
    cancelSubscription: () => Promise.resolve(),
  };
  expect(await sendCharges(organization, answering, NOW)).toEqual({ sent: 2, pending: 0, failed: false });
  expect(applied).toEqual(["charge-1", "charge-2"]);
});

test("when an organisation has no subscription yet, then its charges wait, untried", async () => {
  const charges = pendingStore(storageCharge(2));
  const provider = { applyCharge: jest.fn(() => Promise.resolve()), cancelSubscription: jest.fn() };

  expect(
    await sendCharges(
      { ...PAID, billingSubscriptionId: null, billingSubscriptionSince: null },
      provider,
      NOW,
    ),
  ).toEqual({
    sent: 0,
    pending: 0,
    failed: false,
  });
  expect(repo.pendingCharges).not.toHaveBeenCalled();
  expect(provider.applyCharge).not.toHaveBeenCalled();
  expect(charges[0]).toMatchObject({ state: "pending", attempts: 0 });
});

test("when a seat charge was recorded before the current plan was paid, then it is superseded, not sent: that purchase set the seats", async () => {
  const charges = pendingStore(
    { ...seatCharge("geneva", 1), createdAt: "2026-10-31T23:59:00.000Z" },
    storageCharge(1),
  );
  const applied: string[] = [];
  const provider = {
    applyCharge: async (charge: SubscriptionCharge) => void applied.push(charge.item.name),
    cancelSubscription: () => Promise.resolve(),
  };

  expect(await sendCharges(PAID, provider, NOW)).toEqual({ sent: 1, pending: 0, failed: false });
  expect(applied).toEqual(["Storage pack (100 GB)"]);
  expect(charges.map((charge) => charge.state)).toEqual(["superseded", "sent"]);
});

test("when a new plan replaced a subscription, then the old one is cancelled before any charge is sent; a refused cancellation is tried again", async () => {
  pendingStore(seatCharge("zurich", 1));
  const forgotten: string[][] = [];
  // Two packs were added automatically on the old subscription: they move to the new one.
  jest.spyOn(repo, "sentCharges").mockResolvedValue([
    {
      ...storageCharge(2),
      chargeId: "charge-old",
      state: "sent",
      createdAt: "2026-10-01T00:00:00.000Z",
      attempts: 0,
      lastError: null,
    },
  ]);
  const moved: unknown[] = [];
  jest.spyOn(changes, "changeAccount").mockImplementation(async (_scope, _actor, _at, decide) => {
    const account = { ...INITIAL_ACCOUNT, replacedSubscriptions: ["sub_old"] };
    const { change, result } = decide(account);
    forgotten.push(change.account?.replacedSubscriptions ?? ["unchanged"]);
    moved.push(...(change.charges ?? []));
    return result;
  });
  const calls: string[] = [];
  const provider = {
    applyCharge: async (charge: SubscriptionCharge) => void calls.push(`apply ${charge.subscriptionId}`),
    cancelSubscription: async (id: string) => void calls.push(`cancel ${id}`),
  };
  const replaced = { ...PAID, replacedSubscriptions: ["sub_old"] };

  const refusing = { ...provider, cancelSubscription: () => Promise.reject(new Error("timeout")) };
  expect(await sendCharges(replaced, refusing, NOW)).toEqual({ sent: 0, pending: 1, failed: true });
  expect(forgotten).toEqual([]);

  expect(await sendCharges(replaced, provider, NOW)).toEqual({ sent: 1, pending: 0, failed: false });
  expect(calls).toEqual(["cancel sub_old", "apply sub_1"]);
  expect(forgotten).toEqual([[]]);
  expect(moved).toEqual([storageCharge(2)]);
});
