import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useTranslation } from "react-i18next";

/** The welcome modal's dialog (see `WelcomeModal`). */
export default function WelcomeDialog({ open, close }: { open: boolean; close: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={close} aria-labelledby="resources-welcome-title" data-testid="welcome-modal">
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
