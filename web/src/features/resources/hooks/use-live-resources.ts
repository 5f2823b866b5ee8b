import type { ResourcesPage, ResourcesQuery } from "@alpvault/contracts/organizations";
import { useEffect, useRef, useState } from "react";
import { isLoading } from "@/lib/query";
import { useResources } from "../api/list-resources";

/** How long after each answer the list is asked again while a backup is pending or running. */
export const BACKUP_POLL_MS = 2000;

const hasActiveBackup = (page: ResourcesPage | undefined): boolean =>
  page?.resources.some((resource) => resource.activeBackup !== null) ?? false;

/**
 * The resources list, kept live while one of its resources has a backup pending or running (docs/requirements.md#screens-and-navigation). A
 * backup has no known total, so the list is read again `BACKUP_POLL_MS` after each answer (the query's
 * `refetchInterval`) until none is active. The worker records a resource's last backup and sizes just
 * after its run ends, so the first answer without an active backup may not show them yet: one more read
 * follows it, and `onFinished` runs with its answer, for the figures that change when backups end
 * (analytics, alerts). The interval goes with the screen.
 *
 * `quietReload` is true while the load in flight is one of these background reads: the screen keeps it
 * quiet (no busy bar every two seconds). A load the admin caused (another page, search or filter) is not.
 */
export function useLiveResources(
  organizationId: string | null,
  query: ResourcesQuery,
  onFinished: () => void,
) {
  // The last backup shown has just ended: one settling read is still due, after the answer it ended in.
  const [settling, setSettling] = useState<{ after: number } | null>(null);
  const resources = useResources(organizationId, query, (current) =>
    hasActiveBackup(current.state.data) || settling !== null ? BACKUP_POLL_MS : false,
  );
  const active = hasActiveBackup(resources.data);
  const [wasActive, setWasActive] = useState(active);
  if (wasActive !== active) {
    setWasActive(active);
    setSettling(active ? null : { after: resources.dataUpdatedAt });
  }
  const [finishedAt, setFinishedAt] = useState<number | null>(null);
  if (settling !== null && !active && resources.dataUpdatedAt > settling.after) {
    setSettling(null);
    setFinishedAt(resources.dataUpdatedAt);
  }
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });
  useEffect(() => {
    if (finishedAt !== null) finished.current();
  }, [finishedAt]);

  const quietReload = isLoading(resources) && !resources.isPlaceholderData && (active || settling !== null);
  return { resources, quietReload };
}
