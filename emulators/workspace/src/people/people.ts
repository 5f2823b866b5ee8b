/**
 * The `people` resource's contact methods (https://developers.google.com/people/api/rest/v1/people):
 * get, getBatchGet (at most 200 resource names, `personFields` required), createContact,
 * batchCreateContacts (at most 200 contacts, `readMask` required), deleteContact and updateContactPhoto
 * (base64 `photoBytes` of a JPEG, PNG or GIF). Creates are refused beyond the user's contact limit.
 */
import type { DirectoryUser } from "../directory/store";
import { contactId, CONTACTS_READ, CONTACTS_WRITE, type PeopleRoutes } from "./common";
import { peopleError } from "./errors";
import { PERSON_FIELDS, type StoredContact } from "./model";
import { contactInput, fieldMask, renderPerson } from "./person";

const MAX_BATCH = 200;
const DOC_GET = "people/get";

/** The image type of photo bytes, or undefined when they are not an image Google takes. */
export function imageType(bytes: Buffer): string | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "image/png";
  if (bytes.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  return undefined;
}

/** What the People routes share: the route helper, the store, how a contact is shown, the group check. */
export function peopleParts(routes: PeopleRoutes) {
  const { emulator, route } = routes;
  const store = emulator.people;
  const render = (contact: StoredContact, mask: Set<string>) =>
    renderPerson(contact, mask, { baseUrl: emulator.baseUrl });
  /** Checks that memberships name groups the user has (myContacts when none is given). */
  const checkGroups = (user: DirectoryUser, groups: string[] | undefined): void => {
    for (const group of groups ?? []) {
      try {
        store.group(user.id, group);
      } catch {
        throw peopleError(400, `Invalid person.memberships: contact group contactGroups/${group} not found.`);
      }
    }
  };
  return { route, store, render, checkGroups };
}

/** `people.get` and `people.getBatchGet`. */
function registerPeopleReadRoutes(routes: PeopleRoutes): void {
  const { route, store, render } = peopleParts(routes);
  route(
    "GET",
    "/v1/people/:person",
    "people.people.get",
    "google.people.v1.PeopleService.GetPerson",
    CONTACTS_READ,
    (context, user) => {
      const mask = fieldMask(context.query.get("personFields"), "personFields", PERSON_FIELDS, DOC_GET);
      const id = contactId(`people/${context.params.person ?? ""}`);
      return render(store.contact(user.id, id), mask);
    },
  );

  route(
    "GET",
    "/v1/people:batchGet",
    "people.people.getBatchGet",
    "google.people.v1.PeopleService.GetPeople",
    CONTACTS_READ,
    (context, user) => {
      const mask = fieldMask(context.query.get("personFields"), "personFields", PERSON_FIELDS, DOC_GET);
      const names = context.query.getAll("resourceNames");
      if (names.length === 0) throw peopleError(400, "resourceNames is required.");
      if (names.length > MAX_BATCH)
        throw peopleError(400, `Too many resourceNames: at most ${MAX_BATCH} are allowed.`);
      return {
        responses: names.map((name) => {
          try {
            return {
              httpStatusCode: 200,
              person: render(store.contact(user.id, contactId(name)), mask),
              requestedResourceName: name,
            };
          } catch {
            return {
              httpStatusCode: 404,
              requestedResourceName: name,
              status: { code: 5, message: "Requested entity was not found." },
            };
          }
        }),
      };
    },
  );
}

/** `people.createContact`, `batchCreateContacts`, `deleteContact` and `updateContactPhoto`. */
function registerPeopleWriteRoutes(routes: PeopleRoutes): void {
  const { route, store, render, checkGroups } = peopleParts(routes);
  route(
    "POST",
    "/v1/people:createContact",
    "people.people.createContact",
    "google.people.v1.PeopleService.CreateContact",
    CONTACTS_WRITE,
    async (context, user) => {
      // "personFields … Defaults to all fields if not set."
      const raw = context.query.get("personFields");
      const mask = raw ? fieldMask(raw, "personFields", PERSON_FIELDS, DOC_GET) : PERSON_FIELDS;
      const input = contactInput(await context.json(), "person");
      checkGroups(user, input.groups);
      const [contact] = store.addContacts(user.id, [input]);
      return render(contact as StoredContact, mask);
    },
  );

  route(
    "POST",
    "/v1/people:batchCreateContacts",
    "people.people.batchCreateContacts",
    "google.people.v1.PeopleService.BatchCreateContacts",
    CONTACTS_WRITE,
    async (context, user) => {
      const body = await context.json();
      const mask = fieldMask(
        typeof body.readMask === "string" ? body.readMask : undefined,
        "readMask",
        PERSON_FIELDS,
        "people/batchCreateContacts",
      );
      if (!Array.isArray(body.contacts) || body.contacts.length === 0)
        throw peopleError(400, "contacts is required.");
      if (body.contacts.length > MAX_BATCH) {
        throw peopleError(400, `Too many contacts in the request: at most ${MAX_BATCH} are allowed.`);
      }
      const inputs = body.contacts.map((item: unknown, index: number) =>
        contactInput(
          (item as { contactPerson?: unknown } | null)?.contactPerson,
          `contacts[${index}].contact_person`,
        ),
      );
      for (const input of inputs) checkGroups(user, input.groups);
      const created = store.addContacts(user.id, inputs);
      return {
        createdPeople: created.map((contact) => ({
          httpStatusCode: 200,
          person: render(contact, mask),
          requestedResourceName: `people/c${contact.id}`,
          status: {},
        })),
      };
    },
  );

  route(
    "DELETE",
    "/v1/people/:person:deleteContact",
    "people.people.deleteContact",
    "google.people.v1.PeopleService.DeleteContact",
    CONTACTS_WRITE,
    (context, user) => {
      store.deleteContact(user.id, contactId(`people/${context.params.person ?? ""}`));
      return {};
    },
  );

  route(
    "PATCH",
    "/v1/people/:person:updateContactPhoto",
    "people.people.updateContactPhoto",
    "google.people.v1.PeopleService.UpdateContactPhoto",
    CONTACTS_WRITE,
    async (context, user) => {
      const id = contactId(`people/${context.params.person ?? ""}`);
      const body = await context.json();
      const raw =
        typeof body.personFields === "string" && body.personFields !== "" ? body.personFields : undefined;
      const mask = raw ? fieldMask(raw, "personFields", PERSON_FIELDS, DOC_GET) : undefined;
      if (typeof body.photoBytes !== "string" || body.photoBytes === "")
        throw peopleError(400, "photoBytes is required.");
      const bytes = Buffer.from(body.photoBytes, "base64");
      const contentType = imageType(bytes);
      if (!contentType) throw peopleError(400, "Invalid photo bytes: not a JPEG, PNG or GIF image.");
      store.contact(user.id, id);
      const contact = store.setPhoto(user.id, id, { data: bytes.toString("base64"), contentType });
      return mask ? { person: render(contact, mask) } : {};
    },
  );
}

export function registerPeopleRoutes(routes: PeopleRoutes): void {
  registerPeopleReadRoutes(routes);
  registerPeopleWriteRoutes(routes);
}
