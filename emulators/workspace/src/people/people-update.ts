/**
 * `people.updateContact` (https://developers.google.com/people/api/rest/v1/people/updateContact):
 * `PATCH /v1/people/{id}:updateContact?updatePersonFields=…`. The mask is required (400 "updatePersonFields
 * mask is required…", as the other masks) and names writable fields and `memberships` only; each field it
 * names is replaced, every other field of the body is ignored (`contactUpdateInput`). The contact's etag
 * is required, as the person's `etag` or its contact source's `metadata.sources[].etag`: without one
 * 400 INVALID_ARGUMENT ("The server returns a 400 error if person.metadata.sources is not specified"), a
 * stale one 400 FAILED_PRECONDITION ("… if person.metadata.sources.etag is different than the contact's
 * etag"), so a client reads the contact again before it writes. `personFields` restricts the answer
 * (all fields by default). An "Other contact" or an unknown id is 404.
 */
import { contactId, CONTACTS_WRITE, type PeopleRoutes } from "./common";
import { etagRequired, peopleError, staleEtag } from "./errors";
import { PERSON_FIELDS, type StoredContact, UPDATE_PERSON_FIELDS } from "./model";
import { peopleParts } from "./people";
import { contactUpdateInput, etagOf, fieldMask, sourceId } from "./person";

/** Checks the etag an update carries against the contact's current one. */
function checkEtag(body: Record<string, unknown>, contact: StoredContact): void {
  if (typeof body.etag === "string" && body.etag !== "") {
    if (body.etag !== etagOf("person", contact.id, contact.version)) throw staleEtag("person.etag");
    return;
  }
  const sources = (body.metadata as { sources?: unknown } | undefined)?.sources;
  const own = Array.isArray(sources)
    ? (sources as Record<string, unknown>[]).find(
        (source) =>
          source?.type === "CONTACT" && source.id === sourceId(contact) && typeof source.etag === "string",
      )
    : undefined;
  if (!own)
    throw etagRequired("person.etag or person.metadata.sources.etag for the source that is being updated");
  if (own.etag !== `#${etagOf("source", contact.id, contact.version).slice(1)}`)
    throw staleEtag("person.metadata.sources.etag");
}

export function registerPeopleUpdateRoutes(routes: PeopleRoutes): void {
  const { route, store, render, checkGroups } = peopleParts(routes);
  route(
    "PATCH",
    "/v1/people/:person:updateContact",
    "people.people.updateContact",
    "google.people.v1.PeopleService.UpdateContact",
    CONTACTS_WRITE,
    async (context, user) => {
      const doc = "people/updateContact";
      const update = fieldMask(
        context.query.get("updatePersonFields"),
        "updatePersonFields",
        UPDATE_PERSON_FIELDS,
        doc,
      );
      const raw = context.query.get("personFields");
      const mask = raw ? fieldMask(raw, "personFields", PERSON_FIELDS, "people/get") : PERSON_FIELDS;
      const body = await context.json();
      if (typeof body !== "object" || body === null || Array.isArray(body))
        throw peopleError(400, "Invalid value at 'person': a Person object is required.");
      const contact = store.contact(user.id, contactId(`people/${context.params.person ?? ""}`));
      const input = contactUpdateInput(body, update);
      checkGroups(user, input.groups);
      checkEtag(body, contact);
      return render(store.updateContact(user.id, contact.id, input.fields, input.groups), mask);
    },
  );
}
