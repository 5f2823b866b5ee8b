import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { STORAGE_NAMESPACE } from "@/config/constants";

/** Browser storage entry remembering that the welcome modal was dismissed. */
export const WELCOME_DISMISSED_KEY = `${STORAGE_NAMESPACE}:resourcesWelcomeDismissed`;

function wasDismissed(): boolean {
  try {
    return window.localStorage.getItem(WELCOME_DISMISSED_KEY) === "true";
  } catch (error) {
    console.warn("The welcome modal's dismissal could not be read", error);
    return false;
  }
}

function rememberDismissal(): void {
  try {
    window.localStorage.setItem(WELCOME_DISMISSED_KEY, "true");
  } catch (error) {
    console.warn("The welcome modal's dismissal could not be stored", error);
  }
}

/**
 * The resources screen's welcome modal (docs/requirements.md#screens-and-navigation): shown on the first visit to an organisation's resources
 * (once `ready`: the organisation's resources have loaded) until dismissed; the dismissal is remembered in
 * browser storage.
 */
export function WelcomeModal({ ready }: { ready: boolean }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(wasDismissed);
  const close = () => {
    rememberDismissal();
    setDismissed(true);
  };
  return (
    <Dialog
      open={ready && !dismissed}
      onClose={close}
      aria-labelledby="resources-welcome-title"
      data-testid="welcome-modal"
    >
      <DialogTitle id="resources-welcome-title">{t("resources.welcome.title")}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t("resources.welcome.body")}</DialogContentText>
        <DialogContentText>{t("resources.welcome.next")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={close} autoFocus>
          {t("resources.welcome.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
