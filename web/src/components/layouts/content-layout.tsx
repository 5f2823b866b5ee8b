import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A page of the app shell: its own title above its content (docs/requirements.md#screens-and-navigation). */
export function ContentLayout({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t("app.name")}`;
  }, [title, t]);
  return (
    <Box component="section" sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      {children}
    </Box>
  );
}
