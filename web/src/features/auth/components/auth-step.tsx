import Google from "@mui/icons-material/Google";
import ScienceOutlined from "@mui/icons-material/ScienceOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation } from "react-router-dom";
import { env } from "@/config/env";
import { paths, withAppParameter } from "@/config/paths";
import { signInAsDemoUser, signInWithGoogle, useSignIn } from "@/lib/auth";
import { loadFirebase } from "@/lib/firebase";

/**
 * The authentication step shared by sign-up and login (docs/requirements.md#screens-and-navigation). After sign-in the session connects and
 * the route guard leads on: to the current onboarding step, or to /resources once onboarding is complete.
 */
export function AuthStep({ mode }: { mode: "sign-up" | "login" }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { busy, failure, start } = useSignIn();
  const error = failure === null ? null : t("auth.failed", { message: failure });
  // The sign-in SDK loads once this page shows (a failure is the session's to report).
  useEffect(() => {
    loadFirebase().catch(() => undefined);
  }, []);

  return (
    <>
      <Typography color="text.secondary">{t("auth.subtitle")}</Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Button
        variant="contained"
        size="large"
        startIcon={<Google />}
        disabled={busy}
        onClick={() => start(signInWithGoogle)}
        data-testid="google-sign-in"
      >
        {mode === "sign-up" ? t("auth.signUpWithGoogle") : t("auth.signInWithGoogle")}
      </Button>
      {env.useEmulators && (
        <>
          <Divider />
          <Button
            variant="outlined"
            startIcon={<ScienceOutlined />}
            disabled={busy}
            onClick={() => start(signInAsDemoUser)}
          >
            {t("auth.demoSignIn")}
          </Button>
          <Typography variant="caption" color="text.secondary">
            {t("auth.demoHint")}
          </Typography>
        </>
      )}
      <Typography variant="body2">
        {mode === "sign-up" ? t("auth.haveAccount") : t("auth.noAccount")}{" "}
        <Link
          component={RouterLink}
          to={withAppParameter(
            mode === "sign-up" ? paths.auth.login.getHref() : paths.auth.signUp.getHref(),
            search,
          )}
        >
          {mode === "sign-up" ? t("auth.login") : t("auth.signUp")}
        </Link>
      </Typography>
    </>
  );
}
