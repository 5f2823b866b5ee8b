/**
 * The Google clients a restore writes with, acting as one user through domain-wide delegation: Gmail with
 * the scopes an import into a mailbox needs (insert, labels, modify: a drill also reads its copy back and
 * moves it to the trash), Drive with full access, Calendar and People with write access, and the access a resumable Drive upload sends its bytes
 * with. Recoveries and restore drills share them.
 */
import { calendar_v3 } from "@googleapis/calendar";
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import { people_v1 } from "@googleapis/people";
import { SERVICES } from "@alpvault/contracts/services";
import type { UploadAccess } from "../engine/drive/restorer";
import { googleClientOptions } from "../engine/google/client-options";
import { loadWorkspaceConfig } from "../config";
import { delegatedJwt, workspaceRootUrl } from "./gateway";

const GMAIL_RESTORE_SCOPES = [...SERVICES.gmail.scopes.restore];
const DRIVE_SCOPES = [...SERVICES.drive.scopes.restore];
const CALENDAR_SCOPES = [...SERVICES.calendar.scopes.restore];
const PEOPLE_SCOPES = [...SERVICES.contacts.scopes.restore];

export interface RestoreClients {
  gmail(user: string): gmail_v1.Gmail;
  drive(user: string): drive_v3.Drive;
  calendar(user: string): calendar_v3.Calendar;
  people(user: string): people_v1.People;
  upload(user: string): UploadAccess;
}

export function restoreClients(): RestoreClients {
  const workspace = loadWorkspaceConfig();
  const rootUrl = workspaceRootUrl(workspace);
  const options = (user: string, scopes: string[]) =>
    googleClientOptions({ auth: delegatedJwt(workspace, user, scopes), ...(rootUrl ? { rootUrl } : {}) });
  return {
    gmail: (user) => new gmail_v1.Gmail(options(user, GMAIL_RESTORE_SCOPES)),
    drive: (user) => new drive_v3.Drive(options(user, DRIVE_SCOPES)),
    calendar: (user) => new calendar_v3.Calendar(options(user, CALENDAR_SCOPES)),
    people: (user) => new people_v1.People(options(user, PEOPLE_SCOPES)),
    upload: (user) => {
      const auth = delegatedJwt(workspace, user, DRIVE_SCOPES);
      return {
        rootUrl: rootUrl ?? "https://www.googleapis.com/",
        accessToken: async () => (await auth.getAccessToken()).token ?? "",
      };
    },
  };
}
