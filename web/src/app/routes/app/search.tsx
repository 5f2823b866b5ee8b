import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router-dom";
import { ContentLayout } from "@/components/layouts/content-layout";
import { PlaceholderNotice } from "@/components/ui/placeholder-notice";

export default function SearchRoute() {
  const { t } = useTranslation();
  const { resourceId } = useParams();
  return (
    <ContentLayout title={t("pages.search.title")}>
      {resourceId && (
        <Typography data-testid="search-resource">{t("pages.search.resource", { resourceId })}</Typography>
      )}
      <PlaceholderNotice />
    </ContentLayout>
  );
}
