import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import type { Resource } from "@alpvault/contracts/organizations";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { paths } from "@/config/paths";

/** Why "Backup now" cannot start for a resource. */
export type BackupBlocked = "needsPolicy" | "notActive";

/** A resource's row menu, open at `anchor` (see `RowMenu`). */
export default function RowMenuList({
  anchor,
  resource,
  blocked,
  onClose,
  onRecoverAll,
  onBackupNow,
  onChangePolicy,
}: {
  anchor: HTMLElement | null;
  resource: Resource;
  blocked: BackupBlocked | null;
  onClose: () => void;
  onRecoverAll: () => void;
  onBackupNow: () => void;
  onChangePolicy: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const choose = (action: () => void) => () => {
    onClose();
    action();
  };
  return (
    <Menu open={anchor !== null} anchorEl={anchor} onClose={onClose}>
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
  );
}
