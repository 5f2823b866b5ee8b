import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/** Marks a screen whose content is still being built. */
export function PlaceholderNotice() {
  const { t } = useTranslation();
  return (
    <Typography color="text.secondary" data-testid="placeholder-notice">
      {t("common.placeholder")}
    </Typography>
  );
}
