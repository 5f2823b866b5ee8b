/**
 * A backup run's streams: Gmail for a mailbox (when its policy backs up emails), Drive for a mailbox's My
 * Drive or a shared drive (when it backs up Drive), built by the worker's `StreamFactory`.
 */
import type { DataType } from "@alpvault/contracts/policies";
import type { Organization } from "../organizations/service";
import type { GoogleCaller } from "../engine/google/caller";
import type { DriveResource } from "../engine/drive/source";
import type { GmailSourceOptions } from "../engine/gmail/source";
import { NoAccessError, failingSource, type Source } from "../engine/sources/source";
import type { BackupResource } from "./repo";

/** Builds a resource's streams: Gmail for a mailbox, Drive for a mailbox's My Drive or a shared drive. */
export interface StreamFactory {
  /** `labelNames`: where the mailbox's label names are kept, so label renames are noticed. */
  gmail(
    user: string,
    caller: GoogleCaller,
    signal: AbortSignal,
    labelNames?: GmailSourceOptions["labelNames"],
  ): Source;
  drive(resource: DriveResource, caller: GoogleCaller, signal: AbortSignal): Source;
  /**
   * A member of the shared drive of `domain` to read it as (`findDriveMember`, asked as the organisation's
   * super admin `admin`), or undefined when it has none.
   */
  driveMember(
    drive: { driveId: string; admin: string; domain: string },
    caller: GoogleCaller,
    signal: AbortSignal,
  ): Promise<string | undefined>;
}

/** The data types a run backs up for a resource: a shared drive has only Drive. */
export function streamsOf(resource: BackupResource, dataTypes: readonly DataType[]): ("gmail" | "drive")[] {
  const wanted: ("gmail" | "drive")[] = [];
  if (resource.type === "email" && dataTypes.includes("emails")) wanted.push("gmail");
  if (dataTypes.includes("drive")) wanted.push("drive");
  return wanted;
}

/**
 * The streams of `kinds` for a resource, reading through `caller`. A shared drive whose member cannot be
 * found (or whose lookup fails) gets a stream that fails with that reason.
 */
export async function resourceStreams(
  factory: StreamFactory,
  organization: Organization,
  resource: BackupResource,
  kinds: ("gmail" | "drive")[],
  caller: GoogleCaller,
  signal: AbortSignal,
  labelNames: NonNullable<GmailSourceOptions["labelNames"]>["catalog"],
): Promise<Source[]> {
  const streams: Source[] = [];
  for (const kind of kinds) {
    if (kind === "gmail") {
      streams.push(
        factory.gmail(resource.email ?? "", caller, signal, {
          catalog: labelNames,
          resourceId: resource.resourceId,
        }),
      );
    } else if (resource.type === "email") {
      // Files shared with the user by someone outside the organisation's domain are backed up too.
      streams.push(
        factory.drive(
          { kind: "user", email: resource.email ?? "", domains: [organization.domain] },
          caller,
          signal,
        ),
      );
    } else {
      // A shared drive is read as one of its own members: the admin may not be one, and we add nobody.
      const driveId = resource.resourceId.replace(/^drive-/, "");
      let actAs: string | undefined;
      try {
        actAs = await factory.driveMember(
          { driveId, admin: organization.adminEmail, domain: organization.domain },
          caller,
          signal,
        );
      } catch (error) {
        streams.push(failingSource("drive", error instanceof Error ? error : new Error(String(error))));
        continue;
      }
      streams.push(
        actAs
          ? factory.drive({ kind: "shared-drive", driveId, actAs }, caller, signal)
          : failingSource("drive", new NoAccessError("no-drive-member")),
      );
    }
  }
  return streams;
}
