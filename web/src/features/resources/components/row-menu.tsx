import MoreVertOutlined from "@mui/icons-material/MoreVertOutlined";
import IconButton from "@mui/material/IconButton";
import type { Resource } from "@alpvault/contracts/organizations";
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { WhenWanted } from "@/components/ui/when-wanted";
import type { BackupBlocked } from "./row-menu-list";

/** The menu's entries load when a row's menu is first opened. */
const RowMenuList = lazy(() => import("./row-menu-list"));

/**
 * Why "Backup now" cannot start for this resource (the API would answer 409), or null when it can: a
 * resource is backed up under its policy, and only while it is active in Google Workspace.
 */
function backupBlocked(resource: Resource): BackupBlocked | null {
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
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const blocked = backupBlocked(resource);
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
      <WhenWanted wanted={anchor !== null}>
        <RowMenuList
          anchor={anchor}
          resource={resource}
          blocked={blocked}
          onClose={() => setAnchor(null)}
          onRecoverAll={onRecoverAll}
          onBackupNow={onBackupNow}
          onChangePolicy={onChangePolicy}
        />
      </WhenWanted>
    </>
  );
}
