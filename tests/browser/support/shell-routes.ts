/** The console's signed-in routes, for the browser files that visit every screen. */

/** Every signed-in route of docs/requirements.md#screens-and-navigation with the title its screen shows and the navigation entry it highlights. */
export const SHELL_ROUTES: { path: string; title: string; nav: string | null; screenshot: string }[] = [
  { path: "/", title: "Resources", nav: "Resources", screenshot: "home" },
  { path: "/resources", title: "Resources", nav: "Resources", screenshot: "resources" },
  { path: "/plans", title: "Plans and upgrade", nav: null, screenshot: "plans" },
  { path: "/policies", title: "Backup Policies", nav: "Backup Policies", screenshot: "policies" },
  { path: "/audit-logs", title: "Audit Logs", nav: "Audit Logs", screenshot: "audit-logs" },
  // Reached from the resources screen, not from the navigation (docs/requirements.md#screens-and-navigation).
  { path: "/activity", title: "Backup Activity", nav: null, screenshot: "activity-empty" },
  { path: "/restore-drills", title: "Restore Drills", nav: null, screenshot: "restore-drills" },
  { path: "/search", title: "Search Backups", nav: "Search Backups", screenshot: "search" },
  { path: "/search/res-42", title: "Search Backups", nav: "Search Backups", screenshot: "search-resource" },
  { path: "/profile", title: "My profile", nav: null, screenshot: "profile" },
  { path: "/profile/secrets", title: "Secrets", nav: null, screenshot: "profile-secrets" },
  { path: "/profile/subscription", title: "My Subscription", nav: null, screenshot: "profile-subscription" },
];
