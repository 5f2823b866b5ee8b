/**
 * When retention and garbage collection run: at most once a day per organisation. The dispatcher asks
 * `gcDue` and enqueues the `collectBackupGarbage` task (retention/task.ts) when it answers true.
 */
import type { Organization } from "../../organizations/service";
import { lastCollectionAt } from "./repo";

const DAY_MS = 24 * 3600 * 1000;

/** Whether the organisation's last collection is a day old (the first one comes a day after set-up). */
export async function gcDue(organization: Organization, now: Date): Promise<boolean> {
  const last = await lastCollectionAt(organization);
  const since = typeof last === "string" ? last : organization.createdAt;
  return Date.parse(since) <= now.getTime() - DAY_MS;
}
