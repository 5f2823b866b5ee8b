/**
 * The session state of spec §3 and the connecting sequence of spec §4, shared by the route guard, the
 * onboarding and every screen that needs the current organisation.
 *
 * CONTRACT (other features rely on it; keep these names and shapes): `SessionProvider`, `useSession()`
 * returning `Session`, with `organizationId` (the current organisation, also saved in browser storage) and
 * `organizationDetails`.
 */
import { createContext, useContext, type ReactNode } from "react";
import type { OrganizationDetails, OrganizationSummary } from "@alpvault/contracts/organizations";
import type { Region } from "@alpvault/contracts/regions";
import { readSessionEntry } from "@/lib/session-storage";

export interface Session {
  connected: boolean;
  /** True once the connecting sequence has finished (or failed). */
  initialised: boolean;
  displayName: string | null;
  email: string | null;
  pictureUrl: string | null;
  user: { userId: string } | null;
  organizations: OrganizationSummary[];
  hasGWInstalled: boolean;
  isAdmin: boolean;
  isOnboardingComplete: boolean;
  regions: Region[];
  organizationDetails: OrganizationDetails | null;
  currentPlan: { name: string; maxUsers: number };
  /** The current organisation's id, or null before onboarding is complete. */
  organizationId: string | null;
  /** Reloads installation, regions and organisation details (after an onboarding step). */
  refresh(): Promise<void>;
}

export const DEFAULT_PLAN = { name: "GW Daily", maxUsers: 5 } as const;

const SessionContext = createContext<Session | null>(null);

/** Placeholder until the connecting sequence is built: reads the stored organisation id only. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const session: Session = {
    connected: false,
    initialised: true,
    displayName: null,
    email: null,
    pictureUrl: null,
    user: null,
    organizations: [],
    hasGWInstalled: false,
    isAdmin: false,
    isOnboardingComplete: false,
    regions: [],
    organizationDetails: null,
    currentPlan: { ...DEFAULT_PLAN },
    organizationId: readSessionEntry("organizationId"),
    refresh: async () => undefined,
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession() used outside SessionProvider");
  return session;
}
