import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { ContentLayout } from "@/components/layouts/content-layout";
import { paths } from "@/config/paths";

export default function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.notFound.title")}>
      <Button
        component={RouterLink}
        to={paths.app.resources.getHref()}
        variant="outlined"
        sx={{ alignSelf: "start" }}
      >
        {t("pages.notFound.back")}
      </Button>
    </ContentLayout>
  );
}
