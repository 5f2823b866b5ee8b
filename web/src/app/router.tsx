import { useState, type ComponentType } from "react";
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from "react-router-dom";
import { FullPageSpinner } from "@/components/ui/full-page-spinner";
import { paths } from "@/config/paths";
import { ConnectingFailed } from "@/features/onboarding/components/connecting-failed";
import { decideRoute } from "@/lib/route-guard";
import { useSession } from "@/lib/session";

/** The route guard of docs/requirements.md#screens-and-navigation around every route (the decision itself is `decideRoute`). */
function RouteGuard() {
  const session = useSession();
  const location = useLocation();
  const from = (location.state as { from?: unknown } | null)?.from;
  const decision = decideRoute(session, {
    pathname: location.pathname,
    search: location.search,
    from: typeof from === "string" ? from : undefined,
  });
  switch (decision.kind) {
    case "wait":
      return <FullPageSpinner />;
    case "connecting-failed":
      return <ConnectingFailed />;
    case "redirect":
      return (
        <Navigate to={decision.to} replace state={decision.from ? { from: decision.from } : undefined} />
      );
    case "render":
      return <Outlet />;
  }
}

/** The route table of docs/requirements.md#screens-and-navigation; every screen is a lazily loaded route module. */
export function createAppRouter() {
  return createBrowserRouter([
    {
      hydrateFallbackElement: <FullPageSpinner />,
      element: <RouteGuard />,
      children: [
        { path: paths.auth.signUp.path, lazy: () => import("./routes/auth/sign-up").then(toRoute) },
        { path: paths.auth.login.path, lazy: () => import("./routes/auth/login").then(toRoute) },
        {
          path: paths.onboarding.step1.path,
          lazy: () => import("./routes/onboarding/step-1").then(toRoute),
        },
        {
          path: paths.onboarding.step2.path,
          lazy: () => import("./routes/onboarding/step-2").then(toRoute),
        },
        {
          path: paths.onboarding.step3.path,
          lazy: () => import("./routes/onboarding/step-3").then(toRoute),
        },
        {
          path: paths.onboarding.appInstallError.path,
          lazy: () => import("./routes/onboarding/app-install-error").then(toRoute),
        },
        {
          path: paths.onboarding.superAdminLogin.path,
          lazy: () => import("./routes/onboarding/super-admin-login").then(toRoute),
        },
        {
          path: paths.onboarding.superAdminSuccess.path,
          lazy: () => import("./routes/onboarding/super-admin-success").then(toRoute),
        },
        {
          path: paths.onboarding.noWorkspaceAccount.path,
          lazy: () => import("./routes/onboarding/no-google-workspace-account").then(toRoute),
        },
        {
          lazy: () => import("./routes/app/root").then(toRoute),
          children: [
            { index: true, lazy: () => import("./routes/app/resources").then(toRoute) },
            {
              path: paths.app.resources.path,
              lazy: () => import("./routes/app/resources").then(toRoute),
            },
            {
              path: paths.app.resource.path,
              lazy: () => import("./routes/app/resource").then(toRoute),
            },
            { path: paths.app.browse.path, lazy: () => import("./routes/app/browse").then(toRoute) },
            { path: paths.app.activity.path, lazy: () => import("./routes/app/activity").then(toRoute) },
            { path: paths.app.plans.path, lazy: () => import("./routes/app/plans").then(toRoute) },
            { path: paths.app.policies.path, lazy: () => import("./routes/app/policies").then(toRoute) },
            {
              path: paths.app.auditLogs.path,
              lazy: () => import("./routes/app/audit-logs").then(toRoute),
            },
            { path: paths.app.drills.path, lazy: () => import("./routes/app/drills").then(toRoute) },
            { path: paths.app.search.path, lazy: () => import("./routes/app/search").then(toRoute) },
            { path: paths.app.profile.path, lazy: () => import("./routes/app/profile").then(toRoute) },
            { path: paths.app.secrets.path, lazy: () => import("./routes/app/secrets").then(toRoute) },
            {
              path: paths.app.subscription.path,
              lazy: () => import("./routes/app/subscription").then(toRoute),
            },
            { path: "*", lazy: () => import("./routes/app/not-found").then(toRoute) },
          ],
        },
      ],
    },
  ]);
}

/** Route modules export their screen as `default`. */
function toRoute(module: { default: ComponentType }) {
  return { Component: module.default };
}

export function AppRouter() {
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
