/**
 * The billing module's stored documents, one schema each (lib/stored.ts). Region database, under the
 * organisation: `payments/{checkoutId}` and `billingCharges/{chargeId}`. Global database: the local
 * sandbox provider's `paymentCheckouts/{checkoutId}` and `paymentSubscriptions/{subscriptionId}`.
 * (`paymentEvents/{eventId}` is only ever asked whether it exists.) A field written later than the
 * document (a charge's tries, a payment's amount and actor, a checkout's cancel address and outcome, a
 * subscription's status and applied charges) reads as `repo.ts` gave it before the schemas: none, zero,
 * active, or the success address.
 */
import { z } from "zod/mini";
import { PAYMENT_STATES, type Payment } from "@alpvault/contracts/billing";
import { purchaseSchema } from "@alpvault/contracts/schemas/billing";
import { storedKindWithId } from "../lib/stored";
import type { CheckoutItem } from "./provider";

/** A payment as stored: the answer of the payments route plus who started it. */
export interface PaymentRecord extends Payment {
  /** The admin who started the checkout: the actor of the changes its payment causes. */
  actor: string;
}

/** A checkout of the local sandbox payment provider (global database; its page knows only the id). */
export interface SandboxCheckout {
  checkoutId: string;
  organizationId: string;
  items: { name: string; quantity: number; unitAmountUsd: number }[];
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  createdAt: string;
  /** The last outcome the tester chose; null while the checkout is open. */
  outcome: string | null;
}

/** A sandbox subscription: the checkout's lines, raised by the charges applied to it (each id once). */
export interface SandboxSubscription {
  subscriptionId: string;
  organizationId: string;
  items: CheckoutItem[];
  appliedCharges: string[];
}

/** A sandbox subscription as stored: cancelled ones refuse every change, as Stripe's do. */
export interface StoredSandboxSubscription extends SandboxSubscription {
  status: "active" | "canceled";
}

/** Units added automatically, waiting for (or sent to) the payment provider's subscription. */
export interface ChargeRecord {
  chargeId: string;
  kind: "seats" | "storage";
  item: CheckoutItem;
  /** Superseded: a seat charge of a plan replaced before it was sent (the new plan covers the seats). */
  state: "pending" | "sent" | "superseded";
  createdAt: string;
  /** Tries that failed so far, and why the last one did (the provider's error type, no customer data). */
  attempts: number;
  lastError: string | null;
}

const checkoutItemSchema: z.ZodMiniType<CheckoutItem> = z.object({
  name: z.string(),
  quantity: z.number(),
  unitAmountUsd: z.number(),
});

/** `payments/{checkoutId}`. */
export const PAYMENT = storedKindWithId<PaymentRecord>(
  "payment",
  "checkoutId",
  z.object({
    checkoutId: z.string(),
    state: z.enum(PAYMENT_STATES),
    purchase: purchaseSchema,
    amountUsd: z._default(z.number(), 0),
    createdAt: z.string(),
    updatedAt: z.string(),
    actor: z._default(z.string(), ""),
  }),
);

/** `billingCharges/{chargeId}`. */
export const BILLING_CHARGE = storedKindWithId<ChargeRecord>(
  "billing charge",
  "chargeId",
  z.object({
    chargeId: z.string(),
    kind: z.enum(["seats", "storage"]),
    item: checkoutItemSchema,
    state: z.enum(["pending", "sent", "superseded"]),
    createdAt: z.string(),
    attempts: z._default(z.number(), 0),
    lastError: z._default(z.nullable(z.string()), null),
  }),
);

/** Global `paymentCheckouts/{checkoutId}`. */
export const SANDBOX_CHECKOUT = storedKindWithId<SandboxCheckout>(
  "sandbox checkout",
  "checkoutId",
  z.pipe(
    z.object({
      checkoutId: z.string(),
      organizationId: z.string(),
      items: z._default(z.array(checkoutItemSchema), []),
      metadata: z._default(z.record(z.string(), z.string()), {}),
      successUrl: z.string(),
      cancelUrl: z.optional(z.string()),
      createdAt: z._default(z.string(), ""),
      outcome: z._default(z.nullable(z.string()), null),
    }),
    z.transform((checkout) => ({ ...checkout, cancelUrl: checkout.cancelUrl ?? checkout.successUrl })),
  ),
);

/** Global `paymentSubscriptions/{subscriptionId}`. */
export const SANDBOX_SUBSCRIPTION = storedKindWithId<StoredSandboxSubscription>(
  "sandbox subscription",
  "subscriptionId",
  z.object({
    subscriptionId: z.string(),
    organizationId: z.string(),
    items: z.array(checkoutItemSchema),
    appliedCharges: z._default(z.array(z.string()), []),
    status: z._default(z.enum(["active", "canceled"]), "active"),
  }),
);
