/** Plans and their limits (spec §3, §6, §9): the one place these constants live. */
export const GB = 1024 ** 3;

export type PlanId = "matterhorn" | "geneva" | "zurich";

export interface Plan {
  id: PlanId;
  name: string;
  /** Seats included; null for unlimited (paid plans sell seats). */
  maxUsers: number | null;
  storagePerUserBytes: number;
  backupsPerDay: 1 | 3 | 24;
  services: readonly ("gmail" | "drive" | "chat" | "calendars" | "contacts" | "directory")[];
}

export const PLANS: Record<PlanId, Plan> = {
  matterhorn: {
    id: "matterhorn",
    name: "Matterhorn",
    maxUsers: 2,
    storagePerUserBytes: 15 * GB,
    backupsPerDay: 1,
    services: ["gmail", "drive"],
  },
  geneva: {
    id: "geneva",
    name: "Geneva",
    maxUsers: null,
    storagePerUserBytes: 50 * GB,
    backupsPerDay: 3,
    services: ["gmail", "drive"],
  },
  zurich: {
    id: "zurich",
    name: "Zürich",
    maxUsers: null,
    storagePerUserBytes: 100 * GB,
    backupsPerDay: 24,
    services: ["gmail", "drive", "chat", "calendars", "contacts", "directory"],
  },
};

export const FREE_PLAN: PlanId = "matterhorn";

/** Spec §4: a plan is 'premium' unless its name is 'matterhorn'. */
export function isPremium(planName: string): boolean {
  return planName.toLowerCase() !== "matterhorn";
}

/** Storage an organisation may use: storage per user times seats. */
export function maximumStorageBytes(plan: Plan, seats: number): number {
  return plan.storagePerUserBytes * seats;
}
