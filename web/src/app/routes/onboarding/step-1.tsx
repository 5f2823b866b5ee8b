import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { AppInstallStep } from "@/features/onboarding/components/app-install-step";
import { useOnboardingTranslation } from "@/features/onboarding/i18n/texts";

export default function OnboardingStep1Route() {
  const { t } = useOnboardingTranslation();
  return (
    <OnboardingLayout title={t("onboarding.step1.title")}>
      <AppInstallStep />
    </OnboardingLayout>
  );
}
