import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { DrillsScreen } from "@/features/drills/components/drills-screen";

export default function DrillsRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.drills.title")}>
      <DrillsScreen />
    </ContentLayout>
  );
}
