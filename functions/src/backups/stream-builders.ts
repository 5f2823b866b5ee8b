/**
 * Each service's stream builder for the backup worker (`streams.ts`): the service's source with a client
 * delegated to the user it reads as, without the client's own retries (the quota-aware caller retries).
 */
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import type { WorkspaceConfig } from "../config";
import { delegatedJwt } from "../workspace/gateway";
import { googleClientOptions } from "../engine/google/client-options";
import { DriveSource, findDriveMember, type DriveResource } from "../engine/drive/source";
import { GmailSource } from "../engine/gmail/source";
import { NoAccessError, type Source } from "../engine/sources/source";
import type { StreamContext, StreamFactory } from "./streams";

const GMAIL_SCOPES = ["https://www.googleapis.com/auth/gmail.readonly"];
const DRIVE_SCOPES = ["https://www.googleapis.com/auth/drive"];

export function streamBuilders(workspace: WorkspaceConfig, root: { rootUrl?: string }): StreamFactory {
  const driveSource = (resource: DriveResource, context: StreamContext): Source => {
    const subject = resource.kind === "user" ? resource.email : resource.actAs;
    const auth = delegatedJwt(workspace, subject, DRIVE_SCOPES);
    return new DriveSource({
      drive: new drive_v3.Drive(googleClientOptions({ auth, ...root })),
      resource,
      caller: context.caller,
      signal: context.signal,
      accessToken: async () => (await auth.getAccessToken()).token ?? "",
    });
  };
  /** Not backed up on a schedule yet: a policy cannot choose the service, so no run asks for it. */
  const notYet = (name: string) => () =>
    Promise.reject(new Error(`${name} is not backed up on a schedule yet`));
  return {
    gmail: async ({ resource, caller, signal, labelNames }) => {
      const user = resource.email ?? "";
      return new GmailSource({
        gmail: new gmail_v1.Gmail(
          googleClientOptions({ auth: delegatedJwt(workspace, user, GMAIL_SCOPES), ...root }),
        ),
        user,
        caller,
        signal,
        labelNames,
      });
    },
    drive: async (context) => {
      const { organization, resource } = context;
      if (resource.type === "email") {
        // Files shared with the user by someone outside the organisation's domain are backed up too.
        const email = resource.email ?? "";
        return driveSource({ kind: "user", email, domains: [organization.domain] }, context);
      }
      // A shared drive is read as one of its own members: the admin may not be one, and we add nobody.
      const driveId = resource.resourceId.replace(/^drive-/, "");
      const admin = organization.adminEmail;
      const actAs = await findDriveMember({
        drive: new drive_v3.Drive(
          googleClientOptions({ auth: delegatedJwt(workspace, admin, DRIVE_SCOPES), ...root }),
        ),
        caller: context.caller,
        admin,
        driveId,
        domain: organization.domain,
        signal: context.signal,
      });
      if (!actAs) throw new NoAccessError("no-drive-member");
      return driveSource({ kind: "shared-drive", driveId, actAs }, context);
    },
    calendar: notYet("Calendar"),
    contacts: notYet("Contacts"),
  };
}
