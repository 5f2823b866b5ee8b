import { z } from "zod";
import type { AutoAddStorageResponse, CheckoutResponse, Payment, PlansResponse, Purchase } from "../billing";
import { planIdSchema } from "./plans";

/** Seats and packs one purchase may hold. */
export const MAX_SEATS = 10_000;
export const MAX_STORAGE_PACKS = 1_000;

/**
 * A payment's states: `open` until the payment provider reports; then the spec's outcomes (§4): `paid`
 * (success), `failed`, `pending` (the provider waits for the money), `cancelled`.
 */
export const PAYMENT_STATES = ["open", "pending", "paid", "failed", "cancelled"] as const;

const wholeUpTo = (max: number) => z.number().int().min(1).max(max);

/** A purchase as a checkout request carries it and a payment stores it: a plan with its seats, or packs. */
export const purchaseSchema: z.ZodType<Purchase> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("upgrade"), planId: planIdSchema, seats: wholeUpTo(MAX_SEATS) }),
  z.object({ kind: z.literal("storage"), packs: wholeUpTo(MAX_STORAGE_PACKS) }),
]);

export const paymentSchema: z.ZodType<Payment> = z.object({
  checkoutId: z.string(),
  state: z.enum(PAYMENT_STATES),
  purchase: purchaseSchema,
  amountUsd: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const plansResponseSchema: z.ZodType<PlansResponse> = z.object({
  plans: z.array(
    z.object({
      id: planIdSchema,
      name: z.string(),
      maxUsers: z.number().nullable(),
      storagePerUserBytes: z.number(),
      backupsPerDay: z.literal([1, 3, 24]),
      services: z.array(z.enum(["gmail", "drive", "chat", "calendars", "contacts", "directory"])),
      pricePerUserMonthlyUsd: z.number(),
      premium: z.boolean(),
    }),
  ),
  storagePack: z.object({ bytes: z.number(), priceMonthlyUsd: z.number() }),
  currency: z.literal("USD"),
});

export const checkoutResponseSchema: z.ZodType<CheckoutResponse> = z.object({
  checkoutId: z.string(),
  url: z.string(),
});

export const autoAddStorageResponseSchema: z.ZodType<AutoAddStorageResponse> = z.object({
  autoAddStorage: z.boolean(),
});
