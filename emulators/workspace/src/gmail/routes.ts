/**
 * Gmail v1 with Gmail's paths, scopes, JSON shapes and errors, one file per resource: the profile, labels,
 * messages (reading in `messages.ts`, writing in `message-writes.ts`) and history; plus the emulator-only
 * admin state changes for mailboxes (`admin-routes.ts`). Routes are registered in this order.
 */
import type { WorkspaceEmulator } from "../emulator";
import { registerGmailAdmin } from "./admin-routes";
import { gmailRoutes } from "./common";
import { registerHistoryRoutes } from "./history";
import { registerLabelRoutes } from "./labels";
import { registerMessageWriteRoutes } from "./message-writes";
import { registerMessageReadRoutes } from "./messages";
import { registerProfileRoutes } from "./profile";

export function registerGmailApi(emulator: WorkspaceEmulator): void {
  const routes = gmailRoutes(emulator);
  registerProfileRoutes(routes);
  registerLabelRoutes(routes);
  registerMessageReadRoutes(routes);
  registerMessageWriteRoutes(routes);
  registerHistoryRoutes(routes);
  registerGmailAdmin(emulator);
}
