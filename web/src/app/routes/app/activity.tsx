import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { ActivityScreen } from "@/features/activity/components/activity-screen";
import { useSession } from "@/lib/session";

/** `/activity`: the organisation's backups over time (docs/requirements.md#backup-activity). */
export default function ActivityRoute() {
  const { t } = useTranslation();
  const { organizationId } = useSession();
  return (
    <ContentLayout title={t("pages.activity.title")}>
      <ActivityScreen organizationId={organizationId} />
    </ContentLayout>
  );
}
