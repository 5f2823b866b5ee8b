import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { ResourcesScreen } from "@/features/resources/components/resources-screen";
import { SystemStatusCard } from "@/features/system-status/components/system-status-card";

export default function ResourcesRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.resources.title")}>
      <ResourcesScreen />
      <SystemStatusCard />
    </ContentLayout>
  );
}
