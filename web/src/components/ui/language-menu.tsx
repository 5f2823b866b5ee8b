import TranslateOutlined from "@mui/icons-material/TranslateOutlined";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SUPPORTED_LOCALES } from "@/config/constants";
import { usePreferences } from "@/lib/preferences";

export function LanguageMenu() {
  const { t } = useTranslation();
  const { locale, setLocale } = usePreferences();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t("language.label")}>
        <IconButton aria-label={t("language.label")} onClick={(event) => setAnchor(event.currentTarget)}>
          <TranslateOutlined />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {SUPPORTED_LOCALES.map((option) => (
          <MenuItem
            key={option}
            lang={option}
            selected={option === locale}
            onClick={() => {
              setLocale(option);
              setAnchor(null);
            }}
          >
            {t(`language.${option}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
