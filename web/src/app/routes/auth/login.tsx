import { useTranslation } from "react-i18next";
import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { AuthStep } from "@/features/auth/components/auth-step";

export default function LoginRoute() {
  const { t } = useTranslation();
  return (
    <OnboardingLayout title={t("auth.loginTitle")}>
      <AuthStep mode="login" />
    </OnboardingLayout>
  );
}
