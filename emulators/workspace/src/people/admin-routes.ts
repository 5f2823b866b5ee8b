/**
 * The People part of the emulator-only admin API, under `/emulator/v1` (no token): add contacts (with
 * photos), "Other contacts" and groups to a user, list a user's contacts (for inspection), expire a user's sync tokens, the awkward cases, and the
 * People settings (propagation delay, token lifetime, contact limit, the full-sync first-page quota).
 */
import { ADMIN_PREFIX, pathUser } from "../admin";
import type { WorkspaceEmulator } from "../emulator";
import { badRequest, type RequestContext } from "../http";
import { addAwkwardPeople } from "./awkward";
import type { PeopleSettings } from "./model";
import { contactInput, renderGroup, renderPerson } from "./person";
import { imageType } from "./people";
import type { NewContact } from "./store";

export function registerPeopleAdmin(emulator: WorkspaceEmulator): void {
  const store = emulator.people;
  const add = (method: string, path: string, handler: (context: RequestContext) => unknown): void =>
    emulator.router.add({ method, path: `${ADMIN_PREFIX}${path}`, id: `emulator/people${path}`, handler });

  // {contacts: [{person, photoBase64?, other?: boolean}], ageMinutes?}: contacts as a user would have made
  // them, `ageMinutes` ago (0: now, so sync requests see them only after the propagation delay).
  add("POST", "/users/:user/people/contacts", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    if (!Array.isArray(body.contacts)) throw badRequest("contacts must be an array");
    const ageMinutes = body.ageMinutes ?? 0;
    if (typeof ageMinutes !== "number" || !(ageMinutes >= 0))
      throw badRequest("ageMinutes must be a number >= 0");
    const inputs: NewContact[] = body.contacts.map((item: Record<string, unknown>, index: number) => {
      const input = contactInput(item.person, `contacts[${index}].person`, { keepDisplayNames: true });
      const photo =
        typeof item.photoBase64 === "string" ? Buffer.from(item.photoBase64, "base64") : undefined;
      const contentType = photo ? imageType(photo) : undefined;
      if (photo && !contentType) throw badRequest(`contacts[${index}].photoBase64 is not an image`);
      return {
        ...input,
        ...(item.other === true ? { kind: "other" as const } : {}),
        ...(photo && contentType ? { photo: { data: photo.toString("base64"), contentType } } : {}),
      };
    });
    const all = new Set(["names", "emailAddresses", "memberships", "photos", "metadata"]);
    return {
      contacts: store.addContacts(user.id, inputs, ageMinutes * 60_000).map((contact) =>
        renderPerson(contact, all, {
          baseUrl: emulator.baseUrl,
          prefix: contact.kind === "other" ? "otherContacts" : "people",
        }),
      ),
    };
  });
  // A user's live contacts ("My contacts") with their names, addresses, memberships and client data, for
  // tests to inspect without spending the user's People quotas (which a test's own reads would).
  add("GET", "/users/:user/people/contacts", (context) => {
    const user = pathUser(emulator, context);
    const fields = new Set(["names", "emailAddresses", "memberships", "clientData", "metadata"]);
    return {
      contacts: store
        .liveContacts(user.id)
        .map((contact) => renderPerson(contact, fields, { baseUrl: emulator.baseUrl, prefix: "people" })),
    };
  });
  // {name}
  add("POST", "/users/:user/people/groups", async (context) => {
    const user = pathUser(emulator, context);
    const { name } = await context.json();
    if (typeof name !== "string" || name === "") throw badRequest("name is required");
    return renderGroup(store.createGroup(user.id, name), new Set(["name", "groupType", "metadata"]), 0);
  });
  add("DELETE", "/users/:user/people/contacts/:id", (context) => {
    store.deleteContact(pathUser(emulator, context).id, context.params.id ?? "");
    return undefined;
  });
  add("POST", "/users/:user/people/syncTokens:expire", (context) => {
    store.expireSyncTokens(pathUser(emulator, context).id);
    return {};
  });
  // {withPhotos?, groupName?, nearLimitBy?}
  add("POST", "/users/:user/people:awkward", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    return addAwkwardPeople(store, user.id, body as Parameters<typeof addAwkwardPeople>[2]);
  });
  add("GET", "/people/settings", () => store.settings);
  add("PATCH", "/people/settings", async (context) => {
    const body = await context.json();
    const next = { ...store.settings };
    for (const [key, value] of Object.entries(body)) {
      if (!(key in next)) throw badRequest(`Unknown People setting ${key}`);
      if (key === "syncTokenExpiry") {
        if (value !== "fullSync" && value !== "issued")
          throw badRequest("syncTokenExpiry must be 'fullSync' or 'issued'");
      } else if (typeof value !== "number" || !(value >= 0)) throw badRequest(`${key} must be a number >= 0`);
      (next as Record<string, unknown>)[key] = value;
    }
    store.settings = next as PeopleSettings;
    return store.settings;
  });
}
