/**
 * Drive v3 on Google's paths for the official client, one file per resource: files (`files-list.ts`,
 * `files-read.ts`, `files-write.ts`), download operations (`operations.ts`), changes, shared drives,
 * permissions, revisions and about, plus the emulator-only admin API (`admin-routes.ts`). Routes are
 * registered in this order.
 */
import type { WorkspaceEmulator } from "../emulator";
import type { RequestContext } from "../http";
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
import { registerOperationRoutes } from "./operations";
import { registerRevisionRoutes } from "./revisions";

/**
 * Whether an answer waits for the checksums of generated content still being computed: a write (it may
 * copy them), and a read whose answer may show them (no `fields`, or `fields` naming them or `*`). A
 * download, or a read whose `fields` leave them out, is answered at once, as Google answers it.
 */
function waitsForChecksums(context: RequestContext): boolean {
  if (context.method !== "GET") return true;
  if (context.query.get("alt") === "media") return false;
  const fields = context.query.get("fields");
  return !fields || /Checksum|\*/.test(fields);
}

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
    // Checksums of generated content are computed in the background; answers that may show or copy them
    // wait until they are known.
    add: (spec) =>
      emulator.router.add({
        ...spec,
        handler: async (context, principal) => {
          if (waitsForChecksums(context)) await store.settled();
          return spec.handler(context, principal);
        },
      }),
  };
  const files = driveFiles(routes);
  registerFileListRoutes(files);
  registerFileReadRoutes(files);
  registerFileWriteRoutes(files);
  registerOperationRoutes(files);
  registerChangeRoutes(routes);
  registerSharedDriveRoutes(routes);
  registerPermissionRoutes(routes);
  registerRevisionRoutes(files);
  registerAboutRoutes(routes);
  registerDriveAdminApi(routes);
}
