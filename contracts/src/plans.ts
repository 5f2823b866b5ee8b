/** Plans and their limits (docs/requirements.md#data-the-console-shows, #who-may-do-what, #constants-and-limits): the one place these constants live. */
export const GB = 1024 ** 3;

/** Every plan, from the free one up; the one place their ids are written. */
export const PLAN_IDS = ["matterhorn", "geneva", "zurich"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** Seats included; null for unlimited (paid plans sell seats). */
  maxUsers: number | null;
  storagePerUserBytes: number;
  backupsPerDay: 1 | 3 | 24;
  services: readonly ("gmail" | "drive" | "chat" | "calendars" | "contacts" | "directory")[];
  /** Price of one seat per month in USD (0 on the free plan). */
  pricePerUserMonthlyUsd: number;
}

export const PLANS: Record<PlanId, Plan> = {
  matterhorn: {
    id: "matterhorn",
    name: "Matterhorn",
    maxUsers: 2,
    storagePerUserBytes: 15 * GB,
    backupsPerDay: 1,
    services: ["gmail", "drive"],
    pricePerUserMonthlyUsd: 0,
  },
  geneva: {
    id: "geneva",
    name: "Geneva",
    maxUsers: null,
    storagePerUserBytes: 50 * GB,
    backupsPerDay: 3,
    services: ["gmail", "drive"],
    pricePerUserMonthlyUsd: 3,
  },
  zurich: {
    id: "zurich",
    name: "Zürich",
    maxUsers: null,
    storagePerUserBytes: 100 * GB,
    backupsPerDay: 24,
    services: ["gmail", "drive", "chat", "calendars", "contacts", "directory"],
    pricePerUserMonthlyUsd: 3,
  },
};

export const FREE_PLAN: PlanId = "matterhorn";

/** docs/requirements.md#states-and-flows: a plan is 'premium' unless its name is 'matterhorn'. */
export function isPremium(planName: string): boolean {
  return planName.toLowerCase() !== "matterhorn";
}

/**
 * The plan an organisation's plan name stands for (the names the installation and organisation answers
 * carry: "Matterhorn", "Geneva", "Zürich"), compared without case or accents; null for any other name.
 */
export function planIdOfName(planName: string): PlanId | null {
  const bare = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();
  const wanted = bare(planName);
  return PLAN_IDS.find((id) => id === wanted || bare(PLANS[id].name) === wanted) ?? null;
}

/** Whether the plan is a paid one: it sells seats and storage packs (the free plan's seats are fixed). */
export function isPaidPlan(planId: PlanId): boolean {
  return PLANS[planId].maxUsers === null;
}

/** Plans from the smallest to the largest: Zürich is the maximum (docs/requirements.md#states-and-flows). */
export const PLAN_ORDER: readonly PlanId[] = PLAN_IDS;

/** The plan's position in PLAN_ORDER: a higher rank is an upgrade, a lower one a downgrade. */
export function planRank(planId: PlanId): number {
  return PLAN_ORDER.indexOf(planId);
}

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && (PLAN_ORDER as readonly string[]).includes(value);
}

/** The storage add-on (docs/requirements.md#constants-and-limits): packs of 100 GB. */
export const STORAGE_PACK_BYTES = 100 * GB;

/** Price of one seat per month in USD (docs/requirements.md#constants-and-limits: the subtotal is seats × 3). */
export const SEAT_PRICE_USD = 3;

/** Price of one storage pack per month in USD (docs/requirements.md#constants-and-limits: the subtotal is packs × 3). */
export const STORAGE_PACK_PRICE_USD = 3;

/** Monthly subtotal of `seats` seats on `plan`, in USD. */
export function seatsSubtotalUsd(plan: Plan, seats: number): number {
  return plan.pricePerUserMonthlyUsd * seats;
}

/** Monthly subtotal of `packs` storage packs, in USD. */
export function storagePacksSubtotalUsd(packs: number): number {
  return STORAGE_PACK_PRICE_USD * packs;
}

/** Storage an organisation may use: storage per user times seats, plus the bought storage packs. */
export function maximumStorageBytes(plan: Plan, seats: number, storagePacks = 0): number {
  return plan.storagePerUserBytes * seats + STORAGE_PACK_BYTES * storagePacks;
}
