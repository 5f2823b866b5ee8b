/**
 * Each service's part of a recovery, built for the recovery's target (`ItemRestorer`, item-context.ts):
 * Gmail imports into the target's mailbox; Drive writes into the target's My Drive, or into a shared drive
 * as one of its members who may add files (the admin may not be one). A target the service cannot write
 * to answers the failure the recovery ends with. Only the recovery's own service is built.
 */
import type { calendar_v3 } from "@googleapis/calendar";
import type { drive_v3 } from "@googleapis/drive";
import type { gmail_v1 } from "@googleapis/gmail";
import type { people_v1 } from "@googleapis/people";
import { RECOVERY_MESSAGES, type RecoveryService } from "@alpvault/contracts/recovery";
import type { KeyWrappers } from "../backups/data-keys";
import type { EnqueueRecovery, RecoveryTask } from "./queue";
import type { readBackupResource } from "../backups/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { CalendarRestorer } from "../engine/calendar/restorer";
import { ContactsRestorer } from "../engine/contacts/restorer";
import { DriveRestorer, type DriveTarget, type UploadAccess } from "../engine/drive/restorer";
import { findDriveMember } from "../engine/drive/source";
import { GmailRestorer } from "../engine/gmail/restorer";
import type { GoogleCaller } from "../engine/google/caller";
import type { StretchDeps } from "../lib/stretch";
import type { Scope } from "../lib/tenancy";
import type { Organization } from "../organizations/service";
import type { StoredRecovery } from "./repo";
import { CalendarItems, recoveryCalendarMarker } from "./calendar-items";
import { ContactsItems } from "./contacts-items";
import { DriveItems } from "./drive-items";
import { GmailItems } from "./gmail-items";
import type { ItemRestorer } from "./item-context";

export interface RecoveryDeps extends StretchDeps<RecoveryTask> {
  caller: GoogleCaller;
  gmail(user: string): gmail_v1.Gmail;
  drive(user: string): drive_v3.Drive;
  calendar(user: string): calendar_v3.Calendar;
  people(user: string): people_v1.People;
  /** Drive's upload endpoint as `user` (resumable uploads of large files). */
  upload(user: string): UploadAccess;
  blobStore(regionId: Scope["regionId"]): BlobStore;
  wrappers: KeyWrappers;
  enqueue: EnqueueRecovery;
}

/** What a service's restorer is built for: the recovery's target resource, in its organisation. */
export interface RestoreTarget {
  deps: RecoveryDeps;
  organization: Organization;
  recovery: Pick<
    StoredRecovery,
    "recoveryId" | "method" | "folderName" | "resourceId" | "targetResourceId" | "tagSecret"
  >;
  target: NonNullable<Awaited<ReturnType<typeof readBackupResource>>>;
}

type RestorerFactory = (target: RestoreTarget) => Promise<ItemRestorer | { failed: string }>;

export const ITEM_RESTORERS: Readonly<Record<RecoveryService, RestorerFactory>> = {
  gmail: async ({ deps, target }) => {
    const user = target.email ?? "";
    return new GmailItems(new GmailRestorer(deps.gmail(user), user, deps.caller));
  },
  drive: async ({ deps, organization, target }) => {
    let driveTarget: DriveTarget;
    if (target.type === "email") {
      driveTarget = { kind: "user", email: target.email ?? "" };
    } else {
      const driveId = target.resourceId.replace(/^drive-/, "");
      const actAs = await findDriveMember({
        drive: deps.drive(organization.adminEmail),
        caller: deps.caller,
        admin: organization.adminEmail,
        driveId,
        domain: organization.domain,
        minimum: "writer",
      });
      if (!actAs) return { failed: RECOVERY_MESSAGES.noDriveWriter };
      driveTarget = { kind: "shared-drive", driveId, actAs };
    }
    const user = driveTarget.kind === "user" ? driveTarget.email : driveTarget.actAs;
    return new DriveItems(new DriveRestorer(deps.drive(user), driveTarget, deps.caller, deps.upload(user)));
  },
  calendar: async ({ deps, recovery, target }) => {
    const user = target.email ?? "";
    const intoNewCalendar = recovery.method === "folder";
    const calendar = intoNewCalendar
      ? {
          kind: "new" as const,
          summary: recovery.folderName ?? "Restored",
          marker: recoveryCalendarMarker(recovery.recoveryId),
        }
      : { kind: "original" as const };
    return new CalendarItems(
      (memory) => new CalendarRestorer(deps.calendar(user), { user, calendar }, deps.caller, memory),
      intoNewCalendar,
    );
  },
  contacts: async ({ deps, recovery, target }) => {
    const user = target.email ?? "";
    const intoGroup = recovery.method === "folder";
    return new ContactsItems(
      new ContactsRestorer(deps.people(user), user, deps.caller),
      {
        user,
        tag: {
          id: recovery.recoveryId,
          ...(recovery.tagSecret ? { secret: Buffer.from(recovery.tagSecret, "base64url") } : {}),
        },
        ...(intoGroup && recovery.folderName ? { group: recovery.folderName } : {}),
      },
      // Resource names are the user's own: only the original user can still have one of them.
      !intoGroup && recovery.targetResourceId === recovery.resourceId,
    );
  },
};
