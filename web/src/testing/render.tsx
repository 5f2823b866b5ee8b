/**
 * `renderWithProviders`: a screen as the app shows it, for component tests. Around it are the app's own
 * providers (query cache from `createQueryClient`, preferences, i18next with the real English texts, the
 * theme, the snackbar, the session) and a memory router at the screen's route; the session connects
 * through the fake API before the screen renders, as the route guard waits for it in the app.
 */
import { ThemeProvider, type Theme } from "@mui/material/styles";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { render, waitFor, type RenderResult } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { useEffect, type ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import type { PlanId } from "@alpvault/contracts/plans";
import { AppTheme } from "@/components/theme/app-theme";
import { initI18n } from "@/lib/i18n/i18n";
import { PreferencesProvider, usePreferences } from "@/lib/preferences";
import { createQueryClient } from "@/lib/query";
import { SessionProvider, useSession, type Session } from "@/lib/session";
import { writeSessionEntry } from "@/lib/session-storage";
import { SnackbarProvider } from "@/lib/snackbar";
import { fakeFirebase, TEST_USER, type TestUser } from "./fake-firebase-sdk";
import { installedFakeApi, installFakeApi, type FakeApi } from "./fake-api";
import {
  anInstallation,
  anOrganizationDetails,
  aSubscription,
  TEST_REGIONS,
  type Stage,
} from "./fixtures/session";
import { testSessionLoaders } from "./session-loaders";

export interface RenderOptions {
  /** The URL the screen opens at (default "/"). */
  route?: string;
  /** The route pattern the screen lives at, for its parameters (default: any path). */
  path?: string;
  /** Signed in and connected (default), or signed out (the login and sign-up pages). */
  session?: "connected" | "signed-out";
  /** The organisation's plan, as its installation, details and subscription answers name it (default Geneva). */
  plan?: PlanId;
  /** Where the installation answer puts the user in the onboarding (default: complete). */
  stage?: Stage;
  /** Who is signed in (default: Ada Brunner, `TEST_USER`). */
  user?: TestUser;
  /**
   * The stored auth token of a connected session on this browser: the user's own (default), none (storage
   * cleared, a logout in another tab), or another user's.
   */
  storedAuthToken?: "own" | "none" | "another user's";
}

export interface Rendered extends RenderResult {
  api: FakeApi;
  /** The memory router: `router.state.location` is where the screen led. */
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
  /** Drives the screen as a user does (`user.click`, `user.type`…). */
  user: UserEvent;
}

/** Transitions end at once: dialogs, menus and snackbars open and close without waiting. */
const withoutTransitions = (outer: Theme): Theme => ({
  ...outer,
  transitions: {
    ...outer.transitions,
    create: () => "none",
    duration: { ...outer.transitions.duration, enteringScreen: 0, leavingScreen: 0 },
  },
});

/** What `app/provider.tsx` puts around the router, with the test's session loaders. */
function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <PreferenceBound>{children}</PreferenceBound>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}

function PreferenceBound({ children }: { children: ReactNode }) {
  const { theme, locale } = usePreferences();
  const i18n = initI18n(locale);
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [i18n, locale]);
  return (
    <I18nextProvider i18n={i18n}>
      <AppTheme mode={theme}>
        <ThemeProvider theme={withoutTransitions}>
          <SnackbarProvider>
            <SessionProvider loaders={testSessionLoaders}>{children}</SessionProvider>
          </SnackbarProvider>
        </ThemeProvider>
      </AppTheme>
    </I18nextProvider>
  );
}

const settled = (session: Session) => session.status !== "loading" && session.status !== "connecting";

/** Shows the screen once the session has settled, as the route guard does; tells the test when. */
function SessionGate({ onSettled, children }: { onSettled: () => void; children: ReactNode }) {
  const session = useSession();
  const ready = settled(session);
  useEffect(() => {
    if (ready) onSettled();
  }, [ready, onSettled]);
  return ready ? children : null;
}

/** Answers the connecting sequence's calls the test has not answered itself. */
function answerSession(api: FakeApi, plan: PlanId, stage: Stage): void {
  if (!api.has("GET /installation")) api.answer("GET /installation", anInstallation(stage, plan));
  if (!api.has("GET /regions")) api.answer("GET /regions", { regions: TEST_REGIONS });
  const details = "GET /organizations/:organizationId";
  if (!api.has(details)) api.answer(details, anOrganizationDetails(plan));
  const subscription = "GET /organizations/:organizationId/subscriptions/:subscriptionId";
  if (!api.has(subscription)) api.answer(subscription, aSubscription(plan));
}

/**
 * Renders `ui` at `options.route` inside the app's providers, with the installed fake API (a new one when
 * none is), and resolves once the session has settled and the screen is shown.
 */
export async function renderWithProviders(ui: ReactNode, options: RenderOptions = {}): Promise<Rendered> {
  const { route = "/", path = "*", session = "connected", plan = "geneva", stage = "complete" } = options;
  const signedIn = options.user ?? TEST_USER;
  const api = installedFakeApi() ?? installFakeApi();
  if (session === "connected") {
    answerSession(api, plan, stage);
    fakeFirebase.signIn(signedIn);
    // A sign-in on this browser: the session is restored, not ended (docs/requirements.md#screens-and-navigation).
    const token = options.storedAuthToken ?? "own";
    if (token !== "none")
      writeSessionEntry("storedAuthToken", `${token === "own" ? signedIn.uid : "someone-else"}.test`);
  } else {
    fakeFirebase.signOut();
  }
  let isSettled = false;
  const onSettled = () => {
    isSettled = true;
  };
  const routes = [{ path, element: <SessionGate onSettled={onSettled}>{ui}</SessionGate> }];
  if (path !== "*") routes.push({ path: "*", element: <></> });
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  const queryClient = createQueryClient();
  const user = userEvent.setup({ delay: null });
  const result = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  await waitFor(() => {
    if (!isSettled) throw new Error("The session has not settled");
  });
  return { ...result, api, router, queryClient, user };
}
