/**
 * Each service's stream builder for the backup worker (`streams.ts`): the service's source with a client
 * delegated to the user it reads as, without the client's own retries (the quota-aware caller retries).
 */
import { calendar_v3 } from "@googleapis/calendar";
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import { people_v1 } from "@googleapis/people";
import { SERVICES, type ServiceId } from "@alpvault/contracts/services";
import type { WorkspaceConfig } from "../config";
import { delegatedJwt } from "../workspace/gateway";
import { googleClientOptions } from "../engine/google/client-options";
import { CalendarSource } from "../engine/calendar/source";
import { ContactsSource } from "../engine/contacts/source";
import { DriveSource, findDriveMember, type DriveResource } from "../engine/drive/source";
import { GmailSource } from "../engine/gmail/source";
import { NoAccessError, type Source } from "../engine/sources/source";
import type { StreamContext, StreamFactory } from "./streams";

/** Each service reads with its read-only scopes (the registry's `scopes.backup`) and changes nothing. */
const readScopes = (service: ServiceId): string[] => [...SERVICES[service].scopes.backup];
const GMAIL_SCOPES = readScopes("gmail");
const DRIVE_SCOPES = readScopes("drive");
const CALENDAR_SCOPES = readScopes("calendar");
const CONTACTS_SCOPES = readScopes("contacts");

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
  const user = (context: StreamContext): string => context.resource.email ?? "";
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
    // Calendar and Contacts (on the plans that include them): built as Gmail is, for the resource's user.
    calendar: async (context) =>
      new CalendarSource({
        calendar: new calendar_v3.Calendar(
          googleClientOptions({ auth: delegatedJwt(workspace, user(context), CALENDAR_SCOPES), ...root }),
        ),
        user: user(context),
        caller: context.caller,
        signal: context.signal,
      }),
    contacts: async (context) =>
      new ContactsSource({
        people: new people_v1.People(
          googleClientOptions({ auth: delegatedJwt(workspace, user(context), CONTACTS_SCOPES), ...root }),
        ),
        user: user(context),
        caller: context.caller,
        signal: context.signal,
      }),
  };
}
