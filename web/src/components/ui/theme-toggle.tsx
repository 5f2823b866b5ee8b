import DarkModeOutlined from "@mui/icons-material/DarkModeOutlined";
import LightModeOutlined from "@mui/icons-material/LightModeOutlined";
import IconButton from "@mui/material/IconButton";
import { useTranslation } from "react-i18next";
import { usePreferences } from "@/lib/preferences";

export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme, setTheme } = usePreferences();
  const label = theme === "light" ? t("theme.toDark") : t("theme.toLight");
  return (
    // The native title is its tooltip: MUI's Tooltip is not worth its weight on the login page.
    <IconButton
      aria-label={label}
      title={label}
      onClick={() => setTheme(theme === "light" ? "dark" : "light")}
    >
      {theme === "light" ? <DarkModeOutlined /> : <LightModeOutlined />}
    </IconButton>
  );
}
