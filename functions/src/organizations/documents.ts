/**
 * The organisations module's stored documents, one schema each (lib/stored.ts). Global database:
 * `organizations/{id}` (the routing: domain, region, subscription id, creation) and `domains/{domain}`
 * (the claim of a Workspace domain). Region database: `organizations/{id}` again, holding the
 * organisation's `account` (plan, seats, storage packs, settings, billing state).
 *
 * The account is written whole when the organisation is set up (`repo.ts` `ensureAccount`) and field by
 * field after (`writeAccount`); a field an account written before it existed lacks reads as a new account
 * has it, a plan no longer offered as the free plan, and an empty subscription id as none.
 */
import { z } from "zod/mini";
import { FREE_PLAN, PLANS, PLAN_IDS, type PlanId } from "@alpvault/contracts/plans";
import { REGION_IDS, type RegionId } from "@alpvault/contracts/regions";
import { storedKind } from "../lib/stored";

/**
 * The graceful period after a failed payment: `started` when a payment fails (backups go on until
 * `stopsAt`), `stopped` once that passed (backups stop), back to `none` when a payment succeeds.
 */
export interface GracefulPeriod {
  state: "none" | "started" | "stopped";
  /** ISO date-times; null in state `none`. */
  startedAt: string | null;
  stopsAt: string | null;
}

export const NO_GRACEFUL_PERIOD: GracefulPeriod = { state: "none", startedAt: null, stopsAt: null };

/**
 * Active mailboxes beyond the seats, as the last directory sync saw them: `since` the count was first
 * exceeded (null: the seats cover every mailbox), and the mailboxes beyond it, those added last first.
 */
export interface SeatOverageState {
  since: string | null;
  unseated: { resourceId: string; email: string | null }[];
}

export const NO_SEAT_OVERAGE: SeatOverageState = { since: null, unseated: [] };

/** What the organisation has bought and set (region database). */
export interface Account {
  planId: PlanId;
  /** Seats bought on paid plans (the free plan has its fixed seats). */
  seats: number;
  /** Extra storage bought, in packs (docs/requirements.md#constants-and-limits: 100 GB each). */
  storagePacks: number;
  autoAddStorage: boolean;
  autoAddSeats: boolean;
  seatOverage: SeatOverageState;
  graceful: GracefulPeriod;
  /**
   * The payment provider's subscription of the plan bought last (Stripe `sub_…`): where automatic
   * additions of seats and storage packs are billed. None until a plan is bought through a checkout.
   */
  billingSubscriptionId: string | null;
  /** When that subscription was kept (its plan paid): seat charges recorded before are covered by it. */
  billingSubscriptionSince: string | null;
  /**
   * Subscriptions of plans bought before the current one, still to be cancelled at the provider (a new
   * plan's checkout starts a new subscription; the old one must stop billing).
   */
  replacedSubscriptions: string[];
}

export interface Organization extends Account {
  organizationId: string;
  domain: string;
  regionId: RegionId;
  subscriptionId: string;
  createdAt: string;
  createdBy: string;
  /** The super admin whose delegation the scheduled directory re-sync uses (the one who set it up). */
  adminEmail: string;
}

/** A new organisation's account: the free plan with its fixed seats. */
export const INITIAL_ACCOUNT: Account = {
  planId: FREE_PLAN,
  seats: PLANS[FREE_PLAN].maxUsers ?? 0,
  storagePacks: 0,
  autoAddStorage: false,
  autoAddSeats: false,
  seatOverage: NO_SEAT_OVERAGE,
  graceful: NO_GRACEFUL_PERIOD,
  billingSubscriptionId: null,
  billingSubscriptionSince: null,
  replacedSubscriptions: [],
};

const text = z.nullable(z.string());
const whole = z.int().check(z.minimum(0));

const seatOverageSchema: z.ZodMiniType<SeatOverageState> = z.object({
  since: text,
  unseated: z.array(z.object({ resourceId: z.string(), email: z._default(text, null) })),
});

const gracefulSchema: z.ZodMiniType<GracefulPeriod> = z.object({
  state: z.enum(["none", "started", "stopped"]),
  startedAt: z._default(text, null),
  stopsAt: z._default(text, null),
});

/** A subscription id as stored: an empty one is none. */
const subscriptionIdSchema = z.pipe(
  text,
  z.transform((id) => id || null),
);

const accountSchema: z.ZodMiniType<Account> = z.object({
  /** A plan no longer offered reads as the free plan, as it always did. */
  planId: z._default(z.catch(z.enum(PLAN_IDS), INITIAL_ACCOUNT.planId), INITIAL_ACCOUNT.planId),
  seats: z._default(whole, INITIAL_ACCOUNT.seats),
  storagePacks: z._default(whole, 0),
  autoAddStorage: z._default(z.boolean(), false),
  autoAddSeats: z._default(z.boolean(), false),
  seatOverage: z._default(seatOverageSchema, NO_SEAT_OVERAGE),
  graceful: z._default(gracefulSchema, NO_GRACEFUL_PERIOD),
  billingSubscriptionId: z._default(subscriptionIdSchema, null),
  billingSubscriptionSince: z._default(text, null),
  replacedSubscriptions: z._default(z.array(z.string()), []),
});

/** The organisation's document in its region database: its account (absent before set-up). */
export interface StoredOrganizationAccount {
  account?: Account;
}

/** Region database `organizations/{id}`. */
export const ORGANIZATION_ACCOUNT = storedKind<StoredOrganizationAccount>(
  "organisation account",
  z.object({ account: z.optional(accountSchema) }),
);

/** What the global database keeps of an organisation (its account lives in its region). */
export type OrganizationRouting = Omit<Organization, keyof Account>;

/** Global database `organizations/{id}`. */
export const ORGANIZATION_ROUTING = storedKind<OrganizationRouting>(
  "organisation",
  z.object({
    organizationId: z.string(),
    domain: z.string(),
    regionId: z.enum(REGION_IDS),
    subscriptionId: z.string(),
    createdAt: z.string(),
    createdBy: z.string(),
    adminEmail: z.string(),
  }),
);

/** Global database `domains/{domain}`: the organisation (and its region) the domain belongs to. */
export const DOMAIN_CLAIM = storedKind<{ organizationId: string; regionId: RegionId }>(
  "domain claim",
  z.object({ organizationId: z.string(), regionId: z.enum(REGION_IDS) }),
);
