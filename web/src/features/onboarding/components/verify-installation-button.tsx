import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useNavigate, useLocation } from "react-router-dom";
import { paths, withAppParameter } from "@/config/paths";
import { useSession } from "@/lib/session";
import { useVerifyInstallation } from "../api/get-installation";
import { useOnboardingTranslation } from "../i18n/texts";

/**
 * "Verify installation" (docs/requirements.md#states-and-flows: installation verified, page refreshes): checks the installation.
 * Installed: the page reloads, so everything is read afresh, and the route guard leads to the next step.
 * Not installed: the app-install error page.
 */
export function VerifyInstallationButton({ variant = "contained" }: { variant?: "contained" | "outlined" }) {
  const { t } = useOnboardingTranslation();
  const { refresh } = useSession();
  const navigate = useNavigate();
  const { search, pathname } = useLocation();
  const { verify, checking, error } = useVerifyInstallation();

  const onVerify = async () => {
    const installation = await verify();
    if (!installation) return;
    if (installation.hasGWInstalled) {
      window.location.reload();
      return;
    }
    try {
      await refresh();
    } catch (caught) {
      console.warn("Refreshing the session failed", caught);
    }
    const errorPage = paths.onboarding.appInstallError.path;
    if (pathname !== errorPage) await navigate(withAppParameter(errorPage, search));
  };

  return (
    <>
      {error && (
        <Alert severity="error" data-testid="verify-installation-error">
          {error.message}
        </Alert>
      )}
      <Button variant={variant} size="large" disabled={checking} onClick={() => void onVerify()}>
        {checking ? t("onboarding.step1.verifying") : t("onboarding.step1.verify")}
      </Button>
    </>
  );
}
