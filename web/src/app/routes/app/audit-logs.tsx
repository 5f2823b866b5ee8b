import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { AuditLogsScreen } from "@/features/audit-logs/components/audit-logs-screen";

export default function AuditLogsRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.auditLogs.title")}>
      <AuditLogsScreen />
    </ContentLayout>
  );
}
