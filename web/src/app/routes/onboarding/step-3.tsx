import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { RegionStep } from "@/features/onboarding/components/region-step";
import { useOnboardingTranslation } from "@/features/onboarding/i18n/texts";

export default function OnboardingStep3Route() {
  const { t } = useOnboardingTranslation();
  return (
    <OnboardingLayout title={t("onboarding.step3.title")}>
      <RegionStep />
    </OnboardingLayout>
  );
}
