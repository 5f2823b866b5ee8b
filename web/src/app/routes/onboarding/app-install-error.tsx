import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { AppInstallError } from "@/features/onboarding/components/app-install-error";
import { useOnboardingTranslation } from "@/features/onboarding/i18n/texts";

export default function AppInstallErrorRoute() {
  const { t } = useOnboardingTranslation();
  return (
    <OnboardingLayout title={t("onboarding.appInstallError.title")}>
      <AppInstallError />
    </OnboardingLayout>
  );
}
