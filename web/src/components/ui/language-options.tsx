import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useTranslation } from "react-i18next";
import { SUPPORTED_LOCALES } from "@/config/constants";
import { usePreferences } from "@/lib/preferences";

/** The language menu's options (loaded when the menu first opens: the login needs none of it). */
export default function LanguageOptions({ anchor, onClose }: { anchor: HTMLElement; onClose(): void }) {
  const { t } = useTranslation();
  const { locale, setLocale } = usePreferences();
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      {SUPPORTED_LOCALES.map((option) => (
        <MenuItem
          key={option}
          lang={option}
          selected={option === locale}
          onClick={() => {
            setLocale(option);
            onClose();
          }}
        >
          {t(`language.${option}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
