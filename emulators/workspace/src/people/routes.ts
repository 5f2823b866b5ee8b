/**
 * People API v1 (contacts) with Google's paths (`/v1/...` as people.googleapis.com serves them, the
 * official client's Discovery paths), scopes, shapes and errors, one file per Google resource: people
 * (`people.ts`, its update in `people-update.ts`), connections and otherContacts (`connections.ts`),
 * contactGroups (`contact-groups.ts`); the contact photos' URLs (no token, as Google's photo URLs) and the
 * emulator-only admin API (`admin-routes.ts`). Literal paths (`people:batchGet`) are registered before
 * `people/{id}`.
 */
import type { WorkspaceEmulator } from "../emulator";
import { RESPONDED, notFound } from "../http";
import { registerPeopleAdmin } from "./admin-routes";
import { TINY_PNG } from "./awkward";
import { peopleRoutes } from "./common";
import { registerConnectionRoutes } from "./connections";
import { registerContactGroupRoutes } from "./contact-groups";
import { registerPeopleRoutes } from "./people";
import { registerPeopleUpdateRoutes } from "./people-update";

export function registerPeopleApi(emulator: WorkspaceEmulator): void {
  const routes = peopleRoutes(emulator);
  registerConnectionRoutes(routes);
  registerPeopleRoutes(routes);
  registerPeopleUpdateRoutes(routes);
  registerContactGroupRoutes(routes);
  emulator.router.add({
    method: "GET",
    path: "/people-photos/:photoId",
    id: "people.photo",
    handler: (context) => {
      const id = context.params.photoId ?? "";
      const photo =
        id === "default"
          ? { data: TINY_PNG.toString("base64"), contentType: "image/png" }
          : emulator.people.photo(id);
      if (!photo) throw notFound();
      const bytes = Buffer.from(photo.data, "base64");
      context.response.writeHead(200, { "content-type": photo.contentType, "content-length": bytes.length });
      context.response.end(bytes);
      return RESPONDED;
    },
  });
  registerPeopleAdmin(emulator);
}
