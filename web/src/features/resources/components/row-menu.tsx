import MoreVertOutlined from "@mui/icons-material/MoreVertOutlined";
import IconButton from "@mui/material/IconButton";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";

const ITEMS = ["recoverSpecific", "recoverAll", "backupNow", "changePolicy"] as const;

/**
 * A resource's row menu (spec §2). Recovery, backups and policies arrive in later slices: every item says
 * so, and choosing one reports that it is not available yet instead of pretending.
 */
export function RowMenu({ name, onUnavailable }: { name: string; onUnavailable: () => void }) {
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
        {ITEMS.map((item) => (
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
      </Menu>
    </>
  );
}
