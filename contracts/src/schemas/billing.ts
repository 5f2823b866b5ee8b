import { z } from "zod/mini";
import {
  MAX_SEATS,
  MAX_STORAGE_PACKS,
  PAYMENT_STATES,
  type AutoAddSeatsResponse,
  type AutoAddStorageResponse,
  type CheckoutResponse,
  type Payment,
  type PlansResponse,
  type Purchase,
} from "../billing";
import { planIdSchema } from "./plans";

const wholeUpTo = (max: number) => z.int().check(z.minimum(1), z.maximum(max));

/** A purchase as a checkout request carries it and a payment stores it: a plan with its seats, or packs. */
export const purchaseSchema: z.ZodMiniType<Purchase> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("upgrade"), planId: planIdSchema, seats: wholeUpTo(MAX_SEATS) }),
  z.object({ kind: z.literal("storage"), packs: wholeUpTo(MAX_STORAGE_PACKS) }),
]);

export const paymentSchema: z.ZodMiniType<Payment> = z.object({
  checkoutId: z.string(),
  state: z.enum(PAYMENT_STATES),
  purchase: purchaseSchema,
  amountUsd: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const plansResponseSchema: z.ZodMiniType<PlansResponse> = z.object({
  plans: z.array(
    z.object({
      id: planIdSchema,
      name: z.string(),
      maxUsers: z.nullable(z.number()),
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

export const checkoutResponseSchema: z.ZodMiniType<CheckoutResponse> = z.object({
  checkoutId: z.string(),
  url: z.string(),
});

export const autoAddStorageResponseSchema: z.ZodMiniType<AutoAddStorageResponse> = z.object({
  autoAddStorage: z.boolean(),
});

export const autoAddSeatsResponseSchema: z.ZodMiniType<AutoAddSeatsResponse> = z.object({
  autoAddSeats: z.boolean(),
});

/** Reads a purchase; undefined when it has not the shape of one. */
export function decodePurchase(value: unknown): Purchase | undefined {
  const result = purchaseSchema.safeParse(value);
  return result.success ? result.data : undefined;
}
