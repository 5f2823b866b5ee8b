import SwitchAccount from "@mui/icons-material/SwitchAccount";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { signInWithGoogle, useSignIn } from "@/lib/auth";
import { useSession } from "@/lib/session";
import { useOnboardingTranslation } from "../i18n/texts";

/** The no-Google-Workspace-account page: consumer accounts (and addresses unknown to any Workspace). */
export function NoWorkspaceAccount() {
  const { t } = useOnboardingTranslation();
  const { email } = useSession();
  const { busy, failure: error, start } = useSignIn();
  return (
    <>
      <Alert severity="warning" data-testid="no-workspace-account">
        {ORGANIZATION_MESSAGES.noWorkspace}
      </Alert>
      <Typography color="text.secondary">
        {t("onboarding.noWorkspace.hint", { email: email ?? "" })}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Button
        variant="contained"
        startIcon={<SwitchAccount />}
        disabled={busy}
        onClick={() => start(signInWithGoogle)}
      >
        {t("onboarding.step2.changeAccount")}
      </Button>
    </>
  );
}
