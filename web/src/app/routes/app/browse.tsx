import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router-dom";
import { ContentLayout } from "@/components/layouts/content-layout";
import { paths } from "@/config/paths";
import { RecoveryFlow } from "@/features/recovery/components/recovery-flow";
import type { RecoveryTarget } from "@/features/recovery/hooks/use-recovery-form";
import type { LoadResources } from "@/features/recovery/hooks/use-resource-choices";
import { useResource } from "@/features/resources/api/get-resource";
import { listResources } from "@/features/resources/api/list-resources";
import { SnapshotBrowser } from "@/features/search/components/snapshot-browser";
import { useSession } from "@/lib/session";

/** The resources a recovery may go to: the resources list's largest page. */
const loadRecoveryResources: LoadResources = (organizationId, signal) =>
  listResources(organizationId, { pageSize: 100 }, signal).then((page) => page.resources);

/**
 * `/resources/{resourceId}/browse`: the resource's backups at a point in time (docs/requirements.md#backup-
 * activity), by label or folder; Recover opens the recovery modal for the selection at that day. The
 * resource and its first page of items are read side by side.
 */
export default function BrowseRoute() {
  const { t } = useTranslation();
  const { resourceId = "" } = useParams();
  const { organizationId } = useSession();
  const [recovering, setRecovering] = useState<RecoveryTarget | null>(null);
  const resource = useResource(organizationId, resourceId);
  return (
    <ContentLayout title={t("search.browse.title")}>
      <Box>
        <Button component={RouterLink} to={paths.app.resource.getHref(resourceId)} variant="text">
          {t("search.browse.back", { resource: resource.data?.name ?? "" })}
        </Button>
      </Box>
      {/* Recoveries started here show their progress at the top, in the page, covering nothing. */}
      <RecoveryFlow
        target={recovering}
        loadResources={loadRecoveryResources}
        onClose={() => setRecovering(null)}
      />
      {resource.isPending && organizationId !== null && (
        <LinearProgress aria-label={t("search.browse.title")} />
      )}
      {resource.error && <Alert severity="warning">{resource.error.message}</Alert>}
      {/* The browse is asked for beside the resource, not after it: the page's first load is one round. */}
      {!resource.error && (
        <SnapshotBrowser
          organizationId={organizationId}
          resourceId={resourceId}
          resource={resource.data}
          onRecover={setRecovering}
        />
      )}
    </ContentLayout>
  );
}
