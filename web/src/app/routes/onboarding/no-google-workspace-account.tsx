import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { NoWorkspaceAccount } from "@/features/onboarding/components/no-workspace-account";
import { useOnboardingTranslation } from "@/features/onboarding/i18n/texts";

export default function NoWorkspaceAccountRoute() {
  const { t } = useOnboardingTranslation();
  return (
    <OnboardingLayout title={t("onboarding.noWorkspace.title")}>
      <NoWorkspaceAccount />
    </OnboardingLayout>
  );
}
