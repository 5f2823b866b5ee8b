import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import InsightsOutlined from "@mui/icons-material/InsightsOutlined";
import Button from "@mui/material/Button";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { ContentLayout } from "@/components/layouts/content-layout";
import { paths } from "@/config/paths";
import { RecoveryFlow } from "@/features/recovery/components/recovery-flow";
import type { RecoveryTarget } from "@/features/recovery/hooks/use-recovery-form";
import type { LoadResources } from "@/features/recovery/hooks/use-resource-choices";
import { recoverAllOf } from "@/features/recovery/lib/recover-all";
import { listResources } from "@/features/resources/api/list-resources";
import { ResourcesScreen } from "@/features/resources/components/resources-screen";

/** The resources a recovery may go to: the resources list's largest page. */
const loadRecoveryResources: LoadResources = (organizationId, signal) =>
  listResources(organizationId, { pageSize: 100 }, signal).then((page) => page.resources);

/**
 * The organisation's backups over time and its restore drills: our screens beyond the navigation's four
 * entries (docs/requirements.md#screens-and-navigation), reached from here.
 */
function ResourcesActions() {
  const { t } = useTranslation();
  return (
    <>
      <Button
        component={RouterLink}
        to={paths.app.activity.getHref()}
        variant="outlined"
        startIcon={<InsightsOutlined />}
      >
        {t("pages.activity.title")}
      </Button>
      <Button
        component={RouterLink}
        to={paths.app.drills.getHref()}
        variant="outlined"
        startIcon={<FactCheckOutlined />}
      >
        {t("pages.drills.title")}
      </Button>
    </>
  );
}

export default function ResourcesRoute() {
  const { t } = useTranslation();
  const [recovering, setRecovering] = useState<RecoveryTarget | null>(null);
  return (
    <ContentLayout title={t("pages.resources.title")} actions={<ResourcesActions />}>
      {/* Recoveries started here show their progress at the top, in the page, covering nothing. */}
      <RecoveryFlow
        target={recovering}
        loadResources={loadRecoveryResources}
        onClose={() => setRecovering(null)}
      />
      <ResourcesScreen onRecoverAll={(resource) => setRecovering(recoverAllOf(resource))} />
    </ContentLayout>
  );
}
