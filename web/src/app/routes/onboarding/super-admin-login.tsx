import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { SuperAdminLogin } from "@/features/onboarding/components/super-admin-login";
import { useOnboardingTranslation } from "@/features/onboarding/i18n/texts";

export default function SuperAdminLoginRoute() {
  const { t } = useOnboardingTranslation();
  return (
    <OnboardingLayout title={t("onboarding.superAdminLogin.title")}>
      <SuperAdminLogin />
    </OnboardingLayout>
  );
}
