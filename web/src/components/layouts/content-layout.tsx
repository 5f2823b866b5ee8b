import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * A page of the app shell: its own title above its content (docs/requirements.md#screens-and-navigation),
 * and, beside the title, the page's ways on to related screens (`actions`), if any.
 */
export function ContentLayout({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t("app.name")}`;
  }, [title, t]);
  return (
    <Box component="section" sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 2 }}>
        <Typography variant="h4" component="h1" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {actions && <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>{actions}</Box>}
      </Box>
      {children}
    </Box>
  );
}
