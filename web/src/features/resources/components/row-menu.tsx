import MoreVertOutlined from "@mui/icons-material/MoreVertOutlined";
import IconButton from "@mui/material/IconButton";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import type { Resource } from "@alpvault/contracts/organizations";
import { useState } from "react";
import { useTranslation } from "react-i18next";

const LATER_ITEMS = ["recoverSpecific", "recoverAll"] as const;

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
 * A resource's row menu (spec §2). "Backup now" starts a backup (disabled, with the reason, when the
 * resource has no policy or is not active); "Change backup policy" opens the assign dialog. Recovery
 * arrives in a later slice: those items say so, and choosing one reports that it is not available yet
 * instead of pretending.
 */
export function RowMenu({
  resource,
  onUnavailable,
  onBackupNow,
  onChangePolicy,
}: {
  resource: Resource;
  onUnavailable: () => void;
  onBackupNow: () => void;
  onChangePolicy: () => void;
}) {
  const { t } = useTranslation();
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
        {LATER_ITEMS.map((item) => (
          <MenuItem key={item} onClick={choose(onUnavailable)}>
            <ListItemText
              primary={t(`resources.menu.${item}`)}
              secondary={t("resources.menu.soon")}
              slotProps={{ secondary: { variant: "caption" } }}
            />
          </MenuItem>
        ))}
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
