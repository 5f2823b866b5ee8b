import SwitchAccount from "@mui/icons-material/SwitchAccount";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { useLocation, useNavigate } from "react-router-dom";
import { paths, withAppParameter } from "@/config/paths";
import { useSession } from "@/lib/session";
import { useOnboardingTranslation } from "../i18n/texts";

/** Step 2 (docs/requirements.md#who-may-do-what): the signed-in account is not a super admin; sign in with another account. */
export function SuperAdminStep() {
  const { t } = useOnboardingTranslation();
  const { email } = useSession();
  const navigate = useNavigate();
  const { search } = useLocation();
  return (
    <>
      <Alert severity="warning" data-testid="not-admin">
        {ORGANIZATION_MESSAGES.notAdmin}
      </Alert>
      {email && <Typography color="text.secondary">{t("onboarding.step2.signedInAs", { email })}</Typography>}
      <Button
        variant="contained"
        size="large"
        startIcon={<SwitchAccount />}
        // navigate() settles once the route has loaded and never rejects (a route's errors show in its error element).
        onClick={() => void navigate(withAppParameter(paths.onboarding.superAdminLogin.getHref(), search))}
      >
        {t("onboarding.step2.changeAccount")}
      </Button>
    </>
  );
}
