/** The route table of the product (docs/requirements.md#screens-and-navigation). Every link and route definition reads it from here. */
export const paths = {
  auth: {
    signUp: { path: "/sign-up", getHref: () => "/sign-up" },
    login: { path: "/login", getHref: () => "/login" },
  },
  onboarding: {
    step1: { path: "/onboarding/step-1", getHref: () => "/onboarding/step-1" },
    step2: { path: "/onboarding/step-2", getHref: () => "/onboarding/step-2" },
    step3: { path: "/onboarding/step-3", getHref: () => "/onboarding/step-3" },
    /** The other onboarding pages the requirements name (docs/requirements.md#screens-and-navigation); their routes are ours. */
    superAdminLogin: {
      path: "/onboarding/super-admin-login",
      getHref: () => "/onboarding/super-admin-login",
    },
    superAdminSuccess: {
      path: "/onboarding/super-admin-success",
      getHref: () => "/onboarding/super-admin-success",
    },
    appInstallError: {
      path: "/onboarding/app-install-error",
      getHref: () => "/onboarding/app-install-error",
    },
    noWorkspaceAccount: {
      path: "/onboarding/no-google-workspace-account",
      getHref: () => "/onboarding/no-google-workspace-account",
    },
  },
  app: {
    home: { path: "/", getHref: () => "/" },
    resources: { path: "/resources", getHref: () => "/resources" },
    /** A resource's page (ours): its backups, history, recoveries and exports. */
    resource: {
      path: "/resources/:resourceId",
      getHref: (resourceId: string) => `/resources/${encodeURIComponent(resourceId)}`,
    },
    /** A resource's backups at a point in time, by label or folder (ours). */
    browse: {
      path: "/resources/:resourceId/browse",
      getHref: (resourceId: string) => `/resources/${encodeURIComponent(resourceId)}/browse`,
    },
    /** The organisation's backups over time (ours). */
    activity: { path: "/activity", getHref: () => "/activity" },
    plans: { path: "/plans", getHref: () => "/plans" },
    policies: { path: "/policies", getHref: () => "/policies" },
    auditLogs: { path: "/audit-logs", getHref: () => "/audit-logs" },
    /** Restore drills (ours: the requirements name no such screen). */
    drills: { path: "/restore-drills", getHref: () => "/restore-drills" },
    search: {
      path: "/search/:resourceId?",
      getHref: (resourceId?: string) =>
        resourceId ? `/search/${encodeURIComponent(resourceId)}` : "/search",
    },
    profile: { path: "/profile", getHref: () => "/profile" },
    secrets: { path: "/profile/secrets", getHref: () => "/profile/secrets" },
    subscription: { path: "/profile/subscription", getHref: () => "/profile/subscription" },
  },
} as const;

/** The onboarding has three steps (docs/requirements.md#constants-and-limits). */
export const ONBOARDING_STEP_COUNT = 3;

/** Routes anyone may open without signing in (docs/requirements.md#screens-and-navigation, route guard). */
export const PUBLIC_PATHS: readonly string[] = [paths.auth.login.path, paths.auth.signUp.path];

/** Onboarding pages without a Logout button (docs/requirements.md#screens-and-navigation): login, sign-up and step 2. */
export const PATHS_WITHOUT_LOGOUT: readonly string[] = [...PUBLIC_PATHS, paths.onboarding.step2.path];

/** The query parameter the route guard carries into the onboarding (docs/requirements.md#screens-and-navigation). */
export const APP_QUERY_PARAMETER = "app";

/** `href` with the `app` query parameter of `search` (if any) carried over. */
export function withAppParameter(href: string, search: string): string {
  const app = new URLSearchParams(search).get(APP_QUERY_PARAMETER);
  if (app === null) return href;
  return `${href}${href.includes("?") ? "&" : "?"}${APP_QUERY_PARAMETER}=${encodeURIComponent(app)}`;
}
