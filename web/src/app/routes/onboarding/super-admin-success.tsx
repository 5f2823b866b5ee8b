import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { SuperAdminSuccess } from "@/features/onboarding/components/super-admin-success";
import { useOnboardingTranslation } from "@/features/onboarding/i18n/texts";

export default function SuperAdminSuccessRoute() {
  const { t } = useOnboardingTranslation();
  return (
    <OnboardingLayout title={t("onboarding.superAdminSuccess.title")}>
      <SuperAdminSuccess />
    </OnboardingLayout>
  );
}
