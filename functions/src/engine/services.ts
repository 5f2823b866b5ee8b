/**
 * The engine's side of the services registry (`contracts/src/services.ts` says what each service is): what
 * the engine's generic parts ask of a service's items, answered per kind of search fields, so that no part
 * outside the services' folders compares with a service's name (lint: alpvault/no-service-branches).
 */
import type { SearchFields } from "./sources/source";

/** An item's title as people read it (a mail's subject, a file's name, an event's summary, a contact's name). */
export function itemTitle(search: SearchFields): string | undefined {
  switch (search.kind) {
    case "mail":
      return search.display?.subject;
    case "drive":
      return search.display?.name;
    case "calendar":
      return search.display?.summary;
    case "contact":
      return search.display?.name;
  }
}
