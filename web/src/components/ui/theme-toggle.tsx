import DarkModeOutlined from "@mui/icons-material/DarkModeOutlined";
import LightModeOutlined from "@mui/icons-material/LightModeOutlined";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { usePreferences } from "@/lib/preferences";

export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme, setTheme } = usePreferences();
  const label = theme === "light" ? t("theme.toDark") : t("theme.toLight");
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={() => setTheme(theme === "light" ? "dark" : "light")}>
        {theme === "light" ? <DarkModeOutlined /> : <LightModeOutlined />}
      </IconButton>
    </Tooltip>
  );
}
