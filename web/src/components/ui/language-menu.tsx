import TranslateOutlined from "@mui/icons-material/TranslateOutlined";
import IconButton from "@mui/material/IconButton";
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { WhenWanted } from "./when-wanted";

const LanguageOptions = lazy(() => import("./language-options"));

/** The language button; its menu loads when first opened (the native title is its tooltip). */
export function LanguageMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        aria-label={t("language.label")}
        title={t("language.label")}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <TranslateOutlined />
      </IconButton>
      {anchor && (
        <WhenWanted wanted>
          <LanguageOptions anchor={anchor} onClose={() => setAnchor(null)} />
        </WhenWanted>
      )}
    </>
  );
}
