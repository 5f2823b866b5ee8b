import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router-dom";
import { ContentLayout } from "@/components/layouts/content-layout";
import { paths } from "@/config/paths";
import { activityKeys } from "@/features/activity/api/get-activity";
import { RunHistory } from "@/features/activity/components/run-history";
import { RecentRecoveries } from "@/features/recovery/components/recent-recoveries";
import { useResource } from "@/features/resources/api/get-resource";
import { useResources } from "@/features/resources/api/list-resources";
import { ResourceOverview } from "@/features/resources/components/resource-overview";
import { ExportsCard } from "@/features/search/components/exports-card";
import { useSession } from "@/lib/session";

/**
 * `/resources/{resourceId}`: one resource's page (docs/requirements.md#backup-activity): its summary
 * (services, policy, last and next backups, what was skipped and why, integrity, storage by service), its
 * backup history, and its recent recoveries and exports.
 */
export default function ResourceRoute() {
  const { t } = useTranslation();
  const { resourceId = "" } = useParams();
  const { organizationId } = useSession();
  const client = useQueryClient();
  const resource = useResource(organizationId, resourceId);
  // Names the other resource of a recovery from or to another one.
  const all = useResources(organizationId, { pageSize: 100 });
  const nameOf = (id: string) => {
    const found = all.data?.resources.find((candidate) => candidate.resourceId === id);
    return found ? (found.email ?? found.name) : id;
  };
  const name = resource.data?.name ?? t("resources.page.title");
  return (
    <ContentLayout
      title={name}
      actions={
        <Button component={RouterLink} to={paths.app.activity.getHref()} variant="outlined">
          {t("pages.activity.title")}
        </Button>
      }
    >
      <Box>
        <Button component={RouterLink} to={paths.app.resources.getHref()} variant="text">
          {t("resources.page.back")}
        </Button>
      </Box>
      {resource.isPending && organizationId !== null && (
        <LinearProgress aria-label={t("resources.page.title")} />
      )}
      {resource.error && (
        <Alert severity={resource.error.code === 404 ? "warning" : "error"} data-testid="resource-error">
          {resource.error.code === 404 ? t("resources.page.notFound") : resource.error.message}
        </Alert>
      )}
      {resource.data && (
        <>
          <ResourceOverview
            organizationId={organizationId}
            resource={resource.data}
            onBackupStarted={() =>
              void client.invalidateQueries({ queryKey: activityKeys.all(organizationId) })
            }
          />
          <RunHistory organizationId={organizationId} resourceId={resourceId} name={name} />
          <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", lg: "1fr 1fr" } }}>
            <RecentRecoveries organizationId={organizationId} resourceId={resourceId} nameOf={nameOf} />
            <ExportsCard organizationId={organizationId} resourceId={resourceId} />
          </Box>
        </>
      )}
    </ContentLayout>
  );
}
