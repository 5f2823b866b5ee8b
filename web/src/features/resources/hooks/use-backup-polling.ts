import type { Resource } from "@alpvault/contracts/organizations";
import { useEffect, useRef, useState } from "react";

/** How long after each answer the list is asked again while a backup is pending or running. */
export const BACKUP_POLL_MS = 2000;

/**
 * Keeps the resources list live while one of its resources has a backup pending or running (spec §2). A
 * backup has no known total, so the list is reloaded `BACKUP_POLL_MS` after each answer until none is
 * active. The worker records a resource's last backup and sizes just after its run ends, so the first
 * answer without an active backup may not show them yet: one more reload follows it, and `onFinished` runs
 * then, for the figures that change when backups end (analytics, alerts). No reload is planned while a
 * load is in flight, and the timer goes with the screen.
 *
 * Returns true while the load in flight is one of these background reloads: the screen keeps it quiet
 * (no busy bar every two seconds). A load the admin caused (another page, search or filter) is not quiet.
 */
export function useBackupPolling({
  resources,
  queryKey,
  loading,
  reload,
  onFinished,
}: {
  /** The rows shown; each answer is a new array. */
  resources: Resource[] | undefined;
  /** What the list is loaded for: organisation, search, filters, sorting, page and reload counter. */
  queryKey: string;
  loading: boolean;
  reload: () => void;
  onFinished: () => void;
}): boolean {
  const active = resources?.some((resource) => resource.activeBackup !== null) ?? false;
  // The last backup shown has just ended: one settling reload is still due.
  const [settling, setSettling] = useState(false);
  const [wasActive, setWasActive] = useState(active);
  if (wasActive !== active) {
    setWasActive(active);
    setSettling(!active);
  }
  const [polled, setPolled] = useState<{ resources: Resource[] | undefined; queryKey: string } | null>(null);
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });

  useEffect(() => {
    if ((!active && !settling) || loading) return;
    const timer = window.setTimeout(() => {
      setPolled({ resources, queryKey });
      if (!active) {
        setSettling(false);
        finished.current();
      }
      reload();
    }, BACKUP_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [active, settling, loading, resources, queryKey, reload]);

  return loading && polled !== null && polled.resources === resources && polled.queryKey === queryKey;
}
