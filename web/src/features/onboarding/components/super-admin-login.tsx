import Google from "@mui/icons-material/Google";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { Link as RouterLink, useLocation } from "react-router-dom";
import { paths, withAppParameter } from "@/config/paths";
import { signInWithGoogle } from "@/lib/auth";
import { useSession } from "@/lib/session";
import { useOnboardingTranslation } from "../i18n/texts";

/**
 * The super-admin login page (onboarding order, spec §4): signs in with another Google account. The
 * session reconnects with it: the route guard leads a super admin on to the super-admin success page;
 * another non-admin account stays here, refused with the same text.
 */
export function SuperAdminLogin() {
  const { t } = useOnboardingTranslation();
  const { search } = useLocation();
  const { email } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSignIn = async () => {
    setBusy(true);
    setError(null);
    try {
      await signInWithGoogle();
    } catch (caught) {
      const message = caught instanceof Error ? caught.message : String(caught);
      setError(t("onboarding.superAdminLogin.failed", { message }));
    } finally {
      setBusy(false);
    }
  };

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
        onClick={() => void onSignIn()}
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
