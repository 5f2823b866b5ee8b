import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PolicyChoice } from "../api/list-policies";

/** Whom the dialog assigns a policy to: one resource (row menu) or the selected rows. */
export interface AssignTarget {
  resourceIds: string[];
  /** The resource's name when there is one. */
  name: string | null;
  /** The policy to preselect (the resource's current one). */
  policyId: string | null;
}

/**
 * Chooses the backup policy for one or many resources. Assigning starts a backup of each (docs/requirements.md#states-and-flows), which
 * the dialog says before the admin confirms.
 */
export function AssignPolicyDialog({
  target,
  policies,
  assigning,
  onClose,
  onAssign,
}: {
  target: AssignTarget | null;
  policies: PolicyChoice[];
  assigning: boolean;
  onClose: () => void;
  onAssign: (policyId: string) => void;
}) {
  const { t } = useTranslation();
  const [policyId, setPolicyId] = useState("");

  useEffect(() => {
    if (!target) return;
    const preselected =
      policies.find((policy) => policy.policyId === target.policyId) ?? policies.find((p) => p.isDefault);
    setPolicyId(preselected?.policyId ?? "");
  }, [target, policies]);

  const count = target?.resourceIds.length ?? 0;
  return (
    <Dialog
      open={target !== null}
      onClose={assigning ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="assign-policy-title"
      data-testid="assign-policy-dialog"
    >
      <DialogTitle id="assign-policy-title">{t("resources.assign.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <DialogContentText>
          {target?.name && count === 1
            ? t("resources.assign.forOne", { name: target.name })
            : t("resources.assign.forMany", { count })}
        </DialogContentText>
        <TextField
          select
          label={t("resources.assign.policy")}
          value={policies.some((policy) => policy.policyId === policyId) ? policyId : ""}
          onChange={(event) => setPolicyId(event.target.value)}
          sx={{ mt: 1 }}
        >
          {policies.map((policy) => (
            <MenuItem key={policy.policyId} value={policy.policyId}>
              {policy.name}
            </MenuItem>
          ))}
        </TextField>
        <DialogContentText variant="body2">{t("resources.assign.startsBackup")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={assigning}>
          {t("resources.assign.cancel")}
        </Button>
        <Button
          variant="contained"
          disabled={assigning || policyId === ""}
          onClick={() => onAssign(policyId)}
        >
          {t("resources.assign.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
