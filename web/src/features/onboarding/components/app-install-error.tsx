import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { Link as RouterLink, useLocation } from "react-router-dom";
import { paths, withAppParameter } from "@/config/paths";
import { useOnboardingTranslation } from "../i18n/texts";
import { VerifyInstallationButton } from "./verify-installation-button";

/** The app-install error page: verification found the app not installed. */
export function AppInstallError() {
  const { t } = useOnboardingTranslation();
  const { search } = useLocation();
  return (
    <>
      <Alert severity="error" data-testid="app-install-error">
        <AlertTitle>{ORGANIZATION_MESSAGES.notInstalled}</AlertTitle>
        {t("onboarding.appInstallError.hint")}
      </Alert>
      <VerifyInstallationButton />
      <Typography variant="body2">
        <Link component={RouterLink} to={withAppParameter(paths.onboarding.step1.getHref(), search)}>
          {t("onboarding.appInstallError.back")}
        </Link>
      </Typography>
    </>
  );
}
