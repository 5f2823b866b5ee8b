/**
 * Drive v3 on Google's paths for the official client, one file per resource: files (`files-list.ts`,
 * `files-read.ts`, `files-write.ts`), changes, shared drives, permissions, revisions and about, plus the
 * emulator-only admin API (`admin-routes.ts`). Routes are registered in this order.
 */
import type { WorkspaceEmulator } from "../emulator";
import { registerDriveAdminApi } from "./admin-routes";
import { callerOf, personOf, type DriveRoutes } from "./common";
import { registerPermissionRoutes } from "./permissions";
import { type RenderContext } from "./resources";
import { type DrivePerson } from "./store-model";
import { registerAboutRoutes } from "./about";
import { registerChangeRoutes } from "./changes";
import { registerSharedDriveRoutes } from "./drives";
import { driveFiles } from "./file-access";
import { registerFileListRoutes } from "./files-list";
import { registerFileReadRoutes } from "./files-read";
import { registerFileWriteRoutes } from "./files-write";
import { registerRevisionRoutes } from "./revisions";

export function registerDriveApi(emulator: WorkspaceEmulator): void {
  const { drive: store, directory } = emulator;
  store.attachPeople({
    byId: (id) => {
      const user = directory.user(id);
      return user && user.id === id ? personOf(user) : undefined;
    },
    byEmail: (email) => {
      const user = directory.user(email.toLowerCase());
      return user ? personOf(user) : undefined;
    },
  });

  const render = (viewer: DrivePerson): RenderContext => ({ store, baseUrl: emulator.baseUrl, viewer });
  const routes: DriveRoutes = {
    emulator,
    store,
    render,
    caller: (principal) => callerOf(store, principal),
    // Checksums of generated content are computed in the background; answers wait until they are known.
    add: (spec) =>
      emulator.router.add({
        ...spec,
        handler: async (context, principal) => {
          await store.settled();
          return spec.handler(context, principal);
        },
      }),
  };
  const files = driveFiles(routes);
  registerFileListRoutes(files);
  registerFileReadRoutes(files);
  registerFileWriteRoutes(files);
  registerChangeRoutes(routes);
  registerSharedDriveRoutes(routes);
  registerPermissionRoutes(routes);
  registerRevisionRoutes(files);
  registerAboutRoutes(routes);
  registerDriveAdminApi(routes);
}
