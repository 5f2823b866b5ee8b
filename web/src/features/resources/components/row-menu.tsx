import MoreVertOutlined from "@mui/icons-material/MoreVertOutlined";
import IconButton from "@mui/material/IconButton";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import type { Resource } from "@alpvault/contracts/organizations";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { paths } from "@/config/paths";

/**
 * Why "Backup now" cannot start for this resource (the API would answer 409), or null when it can: a
 * resource is backed up under its policy, and only while it is active in Google Workspace.
 */
function backupBlocked(resource: Resource): "needsPolicy" | "notActive" | null {
  if (resource.policyId === null) return "needsPolicy";
  if (resource.status !== "active") return "notActive";
  return null;
}

/**
 * A resource's row menu (docs/requirements.md#screens-and-navigation). "Recover specific data" opens Search Backups for the resource, to pick
 * what to recover; "Recover all data" opens the recovery modal for everything of a service; "Backup now"
 * starts a backup (disabled, with the reason, when the resource has no policy or is not active); "Change
 * backup policy" opens the assign dialog.
 */
export function RowMenu({
  resource,
  onRecoverAll,
  onBackupNow,
  onChangePolicy,
}: {
  resource: Resource;
  onRecoverAll: () => void;
  onBackupNow: () => void;
  onChangePolicy: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const blocked = backupBlocked(resource);
  const choose = (action: () => void) => () => {
    setAnchor(null);
    action();
  };
  return (
    <>
      <IconButton
        size="small"
        aria-label={t("resources.table.rowMenu", { name: resource.name })}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertOutlined fontSize="small" />
      </IconButton>
      <Menu open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)}>
        <MenuItem onClick={choose(() => void navigate(paths.app.search.getHref(resource.resourceId)))}>
          <ListItemText primary={t("resources.menu.recoverSpecific")} />
        </MenuItem>
        <MenuItem onClick={choose(onRecoverAll)}>
          <ListItemText primary={t("resources.menu.recoverAll")} />
        </MenuItem>
        <MenuItem disabled={blocked !== null} onClick={choose(onBackupNow)}>
          <ListItemText
            primary={t("resources.menu.backupNow")}
            secondary={blocked === null ? undefined : t(`resources.menu.${blocked}`)}
            slotProps={{ secondary: { variant: "caption" } }}
          />
        </MenuItem>
        <MenuItem onClick={choose(onChangePolicy)}>
          <ListItemText primary={t("resources.menu.changePolicy")} />
        </MenuItem>
      </Menu>
    </>
  );
}
