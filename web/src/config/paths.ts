/** The route table of the product (spec §2). Every link and route definition reads it from here. */
export const paths = {
  auth: {
    signUp: { path: "/sign-up", getHref: () => "/sign-up" },
    login: { path: "/login", getHref: () => "/login" },
  },
  onboarding: {
    step1: { path: "/onboarding/step-1", getHref: () => "/onboarding/step-1" },
    step2: { path: "/onboarding/step-2", getHref: () => "/onboarding/step-2" },
    step3: { path: "/onboarding/step-3", getHref: () => "/onboarding/step-3" },
  },
  app: {
    home: { path: "/", getHref: () => "/" },
    resources: { path: "/resources", getHref: () => "/resources" },
    plans: { path: "/plans", getHref: () => "/plans" },
    policies: { path: "/policies", getHref: () => "/policies" },
    auditLogs: { path: "/audit-logs", getHref: () => "/audit-logs" },
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

/** The onboarding has three steps (spec §9). */
export const ONBOARDING_STEP_COUNT = 3;

/** Routes anyone may open without signing in (spec §2, route guard). */
export const PUBLIC_PATHS: readonly string[] = [paths.auth.login.path, paths.auth.signUp.path];
