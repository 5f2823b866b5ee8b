import type { Resource } from "@alpvault/contracts/organizations";
import type { RecoveryTarget } from "../hooks/use-recovery-form";

/**
 * "Recover all data" of a resource: everything of a service (a shared drive has Drive data only; a user's
 * calendars and contacts once they are backed up).
 */
export function recoverAllOf(resource: Resource): RecoveryTarget {
  return {
    resourceId: resource.resourceId,
    resourceName: resource.email ? `${resource.name} (${resource.email})` : resource.name,
    services:
      resource.type === "shared_drive"
        ? ["drive"]
        : [
            "gmail",
            "drive",
            ...(resource.calendarBackupBytes > 0 ? (["calendar"] as const) : []),
            ...(resource.contactsBackupBytes > 0 ? (["contacts"] as const) : []),
          ],
  };
}
