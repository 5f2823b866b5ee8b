import SwitchAccount from "@mui/icons-material/SwitchAccount";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { signInWithGoogle } from "@/lib/auth";
import { useSession } from "@/lib/session";
import { useOnboardingTranslation } from "../i18n/texts";

/** The no-Google-Workspace-account page: consumer accounts (and addresses unknown to any Workspace). */
export function NoWorkspaceAccount() {
  const { t } = useOnboardingTranslation();
  const { email } = useSession();
  const [error, setError] = useState<string | null>(null);
  const onSwitch = () => {
    setError(null);
    signInWithGoogle().catch((caught: unknown) =>
      setError(caught instanceof Error ? caught.message : String(caught)),
    );
  };
  return (
    <>
      <Alert severity="warning" data-testid="no-workspace-account">
        {ORGANIZATION_MESSAGES.noWorkspace}
      </Alert>
      <Typography color="text.secondary">
        {t("onboarding.noWorkspace.hint", { email: email ?? "" })}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Button variant="contained" startIcon={<SwitchAccount />} onClick={onSwitch}>
        {t("onboarding.step2.changeAccount")}
      </Button>
    </>
  );
}
