import LinearProgress from "@mui/material/LinearProgress";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router-dom";
import { ContentLayout } from "@/components/layouts/content-layout";
import { RecoveryFlow } from "@/features/recovery/components/recovery-flow";
import type { RecoveryTarget } from "@/features/recovery/hooks/use-recovery-form";
import type { LoadResources } from "@/features/recovery/hooks/use-resource-choices";
import { listResources, useResources } from "@/features/resources/api/list-resources";
import { SearchScreen } from "@/features/search/components/search-screen";
import { useSession } from "@/lib/session";
import { isLoading } from "@/lib/query";

/** The resources list's largest page: where `/search/{resourceId}` looks its resource up. */
const RESOURCES_PAGE_SIZE = 100;

/** The resources a recovery may go to: the resources list's largest page. */
const loadRecoveryResources: LoadResources = (organizationId, signal) =>
  listResources(organizationId, { pageSize: RESOURCES_PAGE_SIZE }, signal).then((page) => page.resources);

/**
 * `/search/{resourceId?}`: Search Backups, opened for one resource when the route names it (its email, or a
 * shared drive's name, goes into the search card once the resources list has it). Recover opens the
 * recovery modal with the selected items.
 */
export default function SearchRoute() {
  const { t } = useTranslation();
  const { resourceId } = useParams();
  const { organizationId } = useSession();
  const [recovering, setRecovering] = useState<RecoveryTarget | null>(null);
  const lookup = useResources(resourceId ? organizationId : null, { pageSize: RESOURCES_PAGE_SIZE });
  const resource = lookup.data?.resources.find((candidate) => candidate.resourceId === resourceId) ?? null;
  const waiting = resourceId !== undefined && (lookup.isPending || isLoading(lookup));
  return (
    <ContentLayout title={t("pages.search.title")}>
      {/* Recoveries started here show their progress at the top, in the page, covering nothing. */}
      <RecoveryFlow
        target={recovering}
        loadResources={loadRecoveryResources}
        onClose={() => setRecovering(null)}
      />
      {waiting && organizationId !== null ? (
        <LinearProgress aria-label={t("pages.search.title")} />
      ) : (
        <SearchScreen
          key={resourceId ?? ""}
          resourceId={resourceId}
          resource={resource}
          resourceError={lookup.error?.message ?? null}
          onRecover={setRecovering}
        />
      )}
    </ContentLayout>
  );
}
