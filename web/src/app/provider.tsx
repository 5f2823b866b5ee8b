import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { AppTheme } from "@/components/theme/app-theme";
import { getInstallation } from "@/features/onboarding/api/get-installation";
import { getOrganization } from "@/features/onboarding/api/get-organization";
import { getRegions } from "@/features/onboarding/api/get-regions";
import { getSubscription } from "@/features/onboarding/api/get-subscription";
import { onAuthState } from "@/lib/firebase";
import { initI18n } from "@/lib/i18n/i18n";
import { PreferencesProvider, usePreferences } from "@/lib/preferences";
import { createQueryClient } from "@/lib/query";
import { SessionProvider, type SessionLoaders } from "@/lib/session";
import { SnackbarProvider } from "@/lib/snackbar";

/** The calls of the connecting sequence (docs/requirements.md#states-and-flows). */
const sessionLoaders: SessionLoaders = {
  installation: getInstallation,
  regions: getRegions,
  organization: getOrganization,
  plan: async (organizationId, subscription) => {
    const { plan, seats } = await getSubscription(organizationId, subscription, ["plan", "seats"]);
    if (!plan || !seats) throw new Error("The subscription answer lacks the plan or the seats");
    return { name: plan.name, maxUsers: seats.total };
  },
};

function PreferenceBoundProviders({ children }: { children: ReactNode }) {
  const { theme, locale } = usePreferences();
  const i18n = initI18n(locale);
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = locale;
  }, [i18n, locale]);
  return (
    <I18nextProvider i18n={i18n}>
      <AppTheme mode={theme}>
        <SnackbarProvider>
          <SessionProvider loaders={sessionLoaders}>{children}</SessionProvider>
        </SnackbarProvider>
      </AppTheme>
    </I18nextProvider>
  );
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  // What one user read is not shown to the next: signing out empties the cache.
  useEffect(
    () =>
      onAuthState(
        (user) => {
          if (!user) queryClient.clear();
        },
        undefined,
        false,
      ),
    [queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <PreferenceBoundProviders>{children}</PreferenceBoundProviders>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
