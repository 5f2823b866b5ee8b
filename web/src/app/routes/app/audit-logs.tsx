import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { PlaceholderNotice } from "@/components/ui/placeholder-notice";

export default function AuditLogsRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.auditLogs.title")}>
      <PlaceholderNotice />
    </ContentLayout>
  );
}
