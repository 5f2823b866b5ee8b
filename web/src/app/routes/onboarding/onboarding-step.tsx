import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { PlaceholderNotice } from "@/components/ui/placeholder-notice";
import { paths } from "@/config/paths";
import { logout } from "@/lib/auth";

/** One onboarding step; step 2 (super-admin login) offers no Logout (spec §2). */
export function OnboardingStep({ step }: { step: 1 | 2 | 3 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onLogout =
    step === 2
      ? undefined
      : () => void logout().then(() => navigate(paths.auth.signUp.getHref(), { replace: true }));
  return (
    <OnboardingLayout title={t(`onboarding.step${step}.title`)} step={step} onLogout={onLogout}>
      <PlaceholderNotice />
    </OnboardingLayout>
  );
}
