import Google from "@mui/icons-material/Google";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { Link as RouterLink, useLocation } from "react-router-dom";
import { paths, withAppParameter } from "@/config/paths";
import { signInWithGoogle, useSignIn } from "@/lib/auth";
import { useSession } from "@/lib/session";
import { useOnboardingTranslation } from "../i18n/texts";

/**
 * The super-admin login page (onboarding order, docs/requirements.md#states-and-flows): signs in with another Google account. The
 * session reconnects with it: the route guard leads a super admin on to the super-admin success page;
 * another non-admin account stays here, refused with the same text.
 */
export function SuperAdminLogin() {
  const { t } = useOnboardingTranslation();
  const { search } = useLocation();
  const { email } = useSession();
  const { busy, failure, start } = useSignIn();
  const error = failure === null ? null : t("onboarding.superAdminLogin.failed", { message: failure });

  return (
    <>
      <Alert severity="warning" data-testid="not-admin">
        {ORGANIZATION_MESSAGES.notAdmin}
      </Alert>
      {email && <Typography color="text.secondary">{t("onboarding.step2.signedInAs", { email })}</Typography>}
      <Typography color="text.secondary">{t("onboarding.superAdminLogin.hint")}</Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Button
        variant="contained"
        size="large"
        startIcon={<Google />}
        disabled={busy}
        onClick={() => start(signInWithGoogle)}
      >
        {t("onboarding.superAdminLogin.signIn")}
      </Button>
      <Typography variant="body2">
        <Link component={RouterLink} to={withAppParameter(paths.onboarding.step2.getHref(), search)}>
          {t("onboarding.superAdminLogin.back")}
        </Link>
      </Typography>
    </>
  );
}
