/**
 * The Workspace emulator with the APIs it serves: the emulator-only admin API, Directory and licensing,
 * Gmail, Drive, Calendar, People and the upload sessions, registered in this order (the order requests are
 * matched in).
 * The routes depend on the emulator's state; the state knows nothing of its routes.
 */
import { registerAdminApi } from "./admin";
import { registerCalendarApi } from "./calendar/routes";
import { MARKETPLACE_APPLICATION_ID, registerDirectoryApi } from "./directory/routes";
import { registerDriveApi } from "./drive/routes";
import { WorkspaceEmulator, type EmulatorOptions } from "./emulator";
import { registerGmailApi } from "./gmail/routes";
import { registerMarketplacePages } from "./marketplace";
import { registerPeopleApi } from "./people/routes";
import { registerUploadSessions } from "./uploads";

export function createWorkspaceEmulator(options: EmulatorOptions): WorkspaceEmulator {
  const emulator = new WorkspaceEmulator(options);
  registerAdminApi(emulator);
  registerMarketplacePages(emulator, MARKETPLACE_APPLICATION_ID);
  registerDirectoryApi(emulator);
  registerGmailApi(emulator);
  registerDriveApi(emulator);
  registerCalendarApi(emulator);
  registerPeopleApi(emulator);
  registerUploadSessions(emulator.router, emulator.uploads);
  return emulator;
}
