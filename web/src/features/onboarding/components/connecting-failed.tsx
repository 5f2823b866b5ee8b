import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { OnboardingLayout } from "@/components/layouts/onboarding-layout";
import { useSession } from "@/lib/session";
import { useOnboardingTranslation } from "../i18n/texts";

/**
 * Connecting aborted (docs/requirements.md#states-and-flows: the installation or the regions could not be loaded): the error's message
 * (docs/requirements.md#errors-and-messages), Retry, and Logout.
 */
export function ConnectingFailed() {
  const { t } = useOnboardingTranslation();
  const { error, retry } = useSession();
  return (
    <OnboardingLayout title={t("onboarding.connecting.title")} showLogout>
      <Alert severity="error" data-testid="connecting-error">
        {error?.message.trim() || t("common.somethingWentWrong")}
      </Alert>
      <Button variant="contained" onClick={retry}>
        {t("onboarding.connecting.retry")}
      </Button>
    </OnboardingLayout>
  );
}
