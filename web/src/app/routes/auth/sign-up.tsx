import { useTranslation } from "react-i18next";
import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { AuthStep } from "@/features/auth/components/auth-step";

export default function SignUpRoute() {
  const { t } = useTranslation();
  return (
    <OnboardingLayout title={t("auth.signUpTitle")}>
      <AuthStep mode="sign-up" />
    </OnboardingLayout>
  );
}
