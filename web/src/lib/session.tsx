/**
 * The session state of docs/requirements.md#data-the-console-shows and the connecting sequence of #states-and-flows, shared by the route guard, the
 * onboarding and every screen that needs the current organisation.
 *
 * CONTRACT (other features rely on it; keep these names and shapes): `SessionProvider`, `useSession()`
 * returning `Session`, with `organizationId` (the current organisation, also saved in browser storage) and
 * `organizationDetails`.
 *
 * Connecting (docs/requirements.md#states-and-flows): when the auth state becomes signed in, load the installation, then the regions,
 * then the first organisation's details. A failure of the installation or the regions aborts connecting
 * (status "failed" with the `{code, message}` error); a failure of the organisation details still connects.
 * The calls themselves are given by the app (`loaders`), so this shared module depends on no feature. A
 * failure of the plan data alone shows the server's message in the error snackbar
 * (docs/requirements.md#errors-and-messages); the session connects with the default plan.
 */
import type { User } from "firebase/auth";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import type {
  InstallationResponse,
  OrganizationDetails,
  OrganizationSummary,
  SubscriptionReference,
} from "@alpvault/contracts/organizations";
import { FREE_PLAN, isPremium, planIdOfName, type PlanId } from "@alpvault/contracts/plans";
import type { Region } from "@alpvault/contracts/regions";
import { toApiError, type ApiError } from "@alpvault/contracts/errors";
import { registerOrganizationRegion } from "@/lib/api-client";
import { useSnackbar } from "@/lib/snackbar";
import { currentFirebaseUser, loadFirebase, onAuthState } from "@/lib/firebase";
import {
  clearSession,
  hasStoredAuthToken,
  readSessionEntry,
  storeAuthToken,
  writeSessionEntry,
} from "@/lib/session-storage";

export type OnboardingStep = 1 | 2 | 3;

/**
 * - `loading`: the auth state is not known yet;
 * - `signed-out`;
 * - `connecting`: signed in, the connecting sequence runs;
 * - `connected`: signed in and connected;
 * - `failed`: signed in, but the installation or the regions could not be loaded (`error`).
 */
export type SessionStatus = "loading" | "signed-out" | "connecting" | "connected" | "failed";

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
  /** The organisation's plan; maxUsers null means unlimited seats. Default until the plan is loaded. */
  currentPlan: CurrentPlan;
  /**
   * The organisation's plan as the organisation's details (or else the installation answer) name it, the
   * one source of the screens' plan gating; null before the organisation is known.
   */
  organizationPlan: OrganizationPlan | null;
  /** The current organisation's id, or null before onboarding is complete. */
  organizationId: string | null;
  /** Reloads installation, regions and organisation details (after an onboarding step). */
  refresh(): Promise<void>;
  status: SessionStatus;
  /** Why connecting failed (status "failed"). */
  error: ApiError | null;
  /** The current onboarding step (docs/requirements.md#states-and-flows). */
  onboardingStep: OnboardingStep;
  /** False for accounts outside any Google Workspace (consumer accounts). */
  hasWorkspaceAccount: boolean;
  /** Runs the connecting sequence again after a failure. */
  retry(): void;
}

export interface CurrentPlan {
  name: string;
  maxUsers: number | null;
}

/** docs/requirements.md#who-may-do-what: a plan is premium unless its name is 'matterhorn'. */
export interface OrganizationPlan {
  name: string;
  /** Our id of the plan, null for a name that is none of ours. */
  id: PlanId | null;
  premium: boolean;
}

function organizationPlanOf(name: string | undefined): OrganizationPlan | null {
  return name ? { name, id: planIdOfName(name), premium: isPremium(name) } : null;
}

/** docs/requirements.md#data-the-console-shows/#constants-and-limits: the session's plan before the organisation's own is known. */
export const DEFAULT_PLAN: CurrentPlan = { name: "GW Daily", maxUsers: 5 };

/** The calls of the connecting sequence (docs/requirements.md#calls-the-web-makes). */
export interface SessionLoaders {
  installation(): Promise<InstallationResponse>;
  regions(): Promise<Region[]>;
  organization(organizationId: string): Promise<OrganizationDetails>;
  /** The plan of a subscription, read on the subscription region's host. */
  plan(organizationId: string, subscription: SubscriptionReference): Promise<CurrentPlan>;
}

type InstallationFacts = Pick<InstallationResponse, "hasGWInstalled" | "isAdmin" | "organizations">;

/** docs/requirements.md#states-and-flows: 1 if the app is not installed; 2 if installed but not admin; 3 if installed and admin. */
export function computeOnboardingStep(installation: InstallationFacts): OnboardingStep {
  if (!installation.hasGWInstalled) return 1;
  return installation.isAdmin ? 3 : 2;
}

/** docs/requirements.md#states-and-flows: organisations, admin, app installed, and some organisation with a subscription with a region. */
export function computeOnboardingComplete(installation: InstallationFacts): boolean {
  return (
    installation.organizations.length > 0 &&
    installation.isAdmin &&
    installation.hasGWInstalled &&
    installation.organizations.some((organization) =>
      organization.subscriptions.some((subscription) => Boolean(subscription.region)),
    )
  );
}

interface Connection {
  installation: InstallationResponse;
  regions: Region[];
  organizationDetails: OrganizationDetails | null;
  plan: CurrentPlan | null;
  /** Why the plan data could not be read, or null. */
  planError: ApiError | null;
}

interface State {
  status: SessionStatus;
  error: ApiError | null;
  user: User | null;
  connection: Connection | null;
}

const INITIAL_STATE: State = { status: "loading", error: null, user: null, connection: null };

/**
 * The state a page starts in: without a stored auth token no session can be restored (a user the identity
 * provider remembers is signed out, see below), so the page is signed out at once and the login shows
 * while the sign-in service still loads; with one, it waits for the restored auth state.
 */
function startingState(): State {
  if (readSessionEntry("storedAuthToken")) return INITIAL_STATE;
  // No session to restore: what a past one left (its email, name, organisation) goes now.
  clearSession();
  return { ...INITIAL_STATE, status: "signed-out" };
}

const SessionContext = createContext<Session | null>(null);

/**
 * The entries of a signed-in session (docs/requirements.md#data-the-console-shows): the user's email and display name, and the App
 * Check token fetched and stored as authToken.
 */
function storeSignedInEntries(user: User): void {
  writeSessionEntry("email", user.email);
  writeSessionEntry("displayName", user.displayName);
  loadFirebase()
    .then(({ getToken, appCheck }) => getToken(appCheck, false))
    .then(({ token }) => writeSessionEntry("authToken", token))
    .catch((error: unknown) => console.warn("App Check token could not be fetched", error));
}

/**
 * The connecting sequence (docs/requirements.md#states-and-flows): the installation, then the regions, then the first organisation's
 * details and plan (a failure of the details is only logged; a failure of the plan is answered for the
 * snackbar).
 */
async function loadConnection(calls: SessionLoaders): Promise<Connection> {
  const installation = await calls.installation();
  for (const known of installation.organizations) {
    const region = known.subscriptions.find((candidate) => Boolean(candidate.region))?.region;
    if (region) registerOrganizationRegion(known.organizationId, region.domain);
  }
  const regions = await calls.regions();
  const organization = installation.organizations[0];
  let organizationDetails: OrganizationDetails | null = null;
  let plan: CurrentPlan | null = null;
  let planError: ApiError | null = null;
  if (organization) {
    writeSessionEntry("organizationId", organization.organizationId);
    const subscription = organization.subscriptions.find((candidate) => Boolean(candidate.region));
    const [details, loadedPlan] = await Promise.allSettled([
      calls.organization(organization.organizationId),
      subscription ? calls.plan(organization.organizationId, subscription) : Promise.resolve(null),
    ]);
    if (details.status === "fulfilled") organizationDetails = details.value;
    else console.warn("Organisation details could not be loaded; connecting anyway", details.reason);
    if (loadedPlan.status === "fulfilled") plan = loadedPlan.value;
    else {
      console.warn("The plan could not be loaded; the default plan stays", loadedPlan.reason);
      planError = toApiError(loadedPlan.reason);
    }
  }
  writeSessionEntry("onboardingComplete", String(computeOnboardingComplete(installation)));
  return { installation, regions, organizationDetails, plan, planError };
}

export function SessionProvider({ loaders, children }: { loaders: SessionLoaders; children: ReactNode }) {
  const [state, setState] = useState<State>(startingState);
  // The latest loaders, without starting the connection again when they change (a ref is written after
  // render: a layout effect runs before the effects that connect).
  const loadersRef = useRef(loaders);
  useLayoutEffect(() => {
    loadersRef.current = loaders;
  }, [loaders]);
  /** Each sign-in (or sign-out) starts a new generation; answers of an older one are dropped. */
  const generation = useRef(0);

  const load = useCallback(() => loadConnection(loadersRef.current), []);

  const connect = useCallback(
    (user: User | null) => {
      const current = ++generation.current;
      if (!user) {
        setState({ ...INITIAL_STATE, status: "signed-out" });
        return;
      }
      setState({ status: "connecting", error: null, user, connection: null });
      load().then(
        (connection) => {
          if (current === generation.current)
            setState({ status: "connected", error: null, user, connection });
        },
        (error: unknown) => {
          if (current !== generation.current) return;
          console.warn("Connecting failed", error);
          setState({ status: "failed", error: toApiError(error), user, connection: null });
        },
      );
    },
    [load],
  );

  /** The first auth state of a page is the one the identity provider restored, not a sign-in. */
  const restoring = useRef(true);
  useEffect(
    () =>
      onAuthState(
        (user) => {
          const restored = restoring.current;
          restoring.current = false;
          if (user && restored && !hasStoredAuthToken(user.uid)) {
            // No stored auth token marks this session (a logout elsewhere, cleared storage): it is over.
            clearSession();
            loadFirebase()
              .then(({ auth, signOut }) => signOut(auth))
              .catch((error: unknown) => console.warn("Signing out failed", error));
            connect(null);
            return;
          }
          if (user && !restored) storeAuthToken(user.uid);
          if (user) storeSignedInEntries(user);
          connect(user);
        },
        (error: unknown) => {
          console.warn("The sign-in service could not be loaded", error);
          setState({ ...INITIAL_STATE, status: "failed", error: toApiError(error) });
        },
        // Without a stored auth token the login shows first; the sign-in page loads the SDK.
        readSessionEntry("storedAuthToken") !== null,
      ),
    [connect],
  );

  const refresh = useCallback(async () => {
    const current = generation.current;
    const connection = await load();
    if (current === generation.current) {
      setState((previous) => ({ ...previous, status: "connected", error: null, connection }));
    }
  }, [load]);

  const retry = useCallback(() => connect(currentFirebaseUser()), [connect]);

  // Plan loading errors: the server's message in the error snackbar, once per connection read.
  const { show } = useSnackbar();
  const planError = state.connection?.planError ?? null;
  useEffect(() => {
    if (planError) show({ text: planError.message, isError: true });
  }, [planError, show]);

  const session = useMemo<Session>(() => {
    const { connection, user } = state;
    const installation = connection?.installation ?? null;
    const complete = installation ? computeOnboardingComplete(installation) : false;
    const organization = installation?.organizations[0] ?? null;
    return {
      connected: state.status === "connected",
      initialised: state.status !== "loading" && state.status !== "connecting",
      displayName: installation?.user.displayName ?? user?.displayName ?? readSessionEntry("displayName"),
      email: installation?.user.email ?? user?.email ?? readSessionEntry("email"),
      pictureUrl: installation?.user.pictureUrl ?? user?.photoURL ?? null,
      user: installation ? { userId: installation.user.userId } : user ? { userId: user.uid } : null,
      organizations: installation?.organizations ?? [],
      hasGWInstalled: installation?.hasGWInstalled ?? false,
      isAdmin: installation?.isAdmin ?? false,
      isOnboardingComplete: complete,
      regions: connection?.regions ?? [],
      organizationDetails: connection?.organizationDetails ?? null,
      currentPlan: connection?.plan ?? { ...DEFAULT_PLAN },
      organizationPlan: organizationPlanOf(
        connection?.organizationDetails?.plan.name ?? organization?.plan.name,
      ),
      organizationId: complete && organization ? organization.organizationId : null,
      refresh,
      status: state.status,
      error: state.error,
      onboardingStep: installation ? computeOnboardingStep(installation) : 1,
      hasWorkspaceAccount: installation?.user.hasWorkspaceAccount ?? true,
      retry,
    };
  }, [state, refresh, retry]);

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession() used outside SessionProvider");
  return session;
}

/**
 * Whether the organisation is on the free plan, for the screens' gating (docs/requirements.md#who-may-do-what):
 * by the plan name of the organisation's details or installation answer (premium unless 'matterhorn'); before
 * the session knows it, by the plan of the screen's own answer; undefined while neither is known.
 */
export function useFreePlan(answered: PlanId | undefined): boolean | undefined {
  const { organizationPlan } = useSession();
  if (organizationPlan) return !organizationPlan.premium;
  return answered === undefined ? undefined : answered === FREE_PLAN;
}
