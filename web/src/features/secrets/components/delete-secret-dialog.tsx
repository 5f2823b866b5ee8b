import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useTranslation } from "react-i18next";
import type { Secret } from "@alpvault/contracts/secrets";

/** Asks before deleting a key; cannot be dismissed while the delete runs. */
export function DeleteSecretDialog({
  deleting,
  pending,
  onCancel,
  onConfirm,
}: {
  deleting: Secret | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={deleting !== null} onClose={pending ? undefined : onCancel}>
      <DialogTitle>{t("secrets.delete.title")}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {t("secrets.delete.body", { description: deleting?.description ?? "" })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          {t("secrets.delete.cancel")}
        </Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={pending}>
          {t("secrets.delete.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
