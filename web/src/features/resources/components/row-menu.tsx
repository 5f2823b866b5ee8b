import MoreVertOutlined from "@mui/icons-material/MoreVertOutlined";
import IconButton from "@mui/material/IconButton";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";

const LATER_ITEMS = ["recoverSpecific", "recoverAll", "backupNow"] as const;

/**
 * A resource's row menu (spec §2). "Change backup policy" opens the assign dialog; recovery and manual
 * backups arrive in later slices: those items say so, and choosing one reports that it is not available
 * yet instead of pretending.
 */
export function RowMenu({
  name,
  onUnavailable,
  onChangePolicy,
}: {
  name: string;
  onUnavailable: () => void;
  onChangePolicy: () => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        size="small"
        aria-label={t("resources.table.rowMenu", { name })}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertOutlined fontSize="small" />
      </IconButton>
      <Menu open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)}>
        {LATER_ITEMS.map((item) => (
          <MenuItem
            key={item}
            onClick={() => {
              setAnchor(null);
              onUnavailable();
            }}
          >
            <ListItemText
              primary={t(`resources.menu.${item}`)}
              secondary={t("resources.menu.soon")}
              slotProps={{ secondary: { variant: "caption" } }}
            />
          </MenuItem>
        ))}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onChangePolicy();
          }}
        >
          <ListItemText primary={t("resources.menu.changePolicy")} />
        </MenuItem>
      </Menu>
    </>
  );
}
