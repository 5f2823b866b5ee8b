import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { SuperAdminStep } from "@/features/onboarding/components/super-admin-step";
import { useOnboardingTranslation } from "@/features/onboarding/i18n/texts";

export default function OnboardingStep2Route() {
  const { t } = useOnboardingTranslation();
  return (
    <OnboardingLayout title={t("onboarding.step2.title")}>
      <SuperAdminStep />
    </OnboardingLayout>
  );
}
