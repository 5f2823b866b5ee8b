/**
 * Awkward address books for tests and benches (the demo seed stays as it is): contacts with photos and
 * every field Google keeps, in groups, and a user near the contact limit. Others call these directly or
 * through the admin API (`POST /emulator/v1/users/{user}/people:awkward`).
 */
import type { NewContact, PeopleStore } from "./store";

/** A 1×1 PNG, the smallest image People takes as a contact photo. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** A contact with every field a contact keeps. */
export function fullContact(index: number, groups?: string[]): NewContact {
  return {
    fields: {
      names: [
        {
          givenName: `Given${index}`,
          familyName: `Family${index}`,
          displayName: `Given${index} Family${index}`,
        },
      ],
      emailAddresses: [{ value: `contact${index}@example.net`, type: "work" }],
      phoneNumbers: [{ value: `+41 44 000 ${String(index).padStart(4, "0")}`, type: "mobile" }],
      addresses: [
        { streetAddress: `${index} Main Street`, city: "Zürich", postalCode: "8001", country: "Switzerland" },
      ],
      organizations: [{ name: "Example AG", title: "Engineer" }],
      birthdays: [{ date: { year: 1980, month: 1 + (index % 12), day: 1 + (index % 28) } }],
      biographies: [{ value: `Notes about contact ${index}.\nSecond line.`, contentType: "TEXT_PLAIN" }],
      userDefined: [{ key: "customer-id", value: `C-${index}` }],
    },
    ...(groups ? { groups } : {}),
  };
}

export interface AwkwardPeopleOptions {
  /** Contacts with a photo (default 3). */
  withPhotos?: number;
  /** A user group holding them (default "Awkward"). */
  groupName?: string;
  /** Fill the address book up to this many contacts short of the user's contact limit. */
  nearLimitBy?: number;
}

/** Adds the awkward cases to a user's contacts; returns what was added. */
export function addAwkwardPeople(
  store: PeopleStore,
  userId: string,
  options: AwkwardPeopleOptions = {},
): { groupId: string; contacts: number } {
  const group = store.createGroup(userId, options.groupName ?? "Awkward");
  const photos = options.withPhotos ?? 3;
  const withPhotos = Array.from({ length: photos }, (_, index) => ({
    ...fullContact(index, ["myContacts", group.id]),
    photo: { data: TINY_PNG.toString("base64"), contentType: "image/png" },
  }));
  store.addContacts(userId, withPhotos);
  let added = photos;
  if (options.nearLimitBy !== undefined) {
    const missing = store.settings.contactLimit - options.nearLimitBy - store.liveContacts(userId).length;
    for (let start = 0; start < missing; start += 1000) {
      const count = Math.min(1000, missing - start);
      store.addContacts(
        userId,
        Array.from({ length: count }, (_, index) => ({
          fields: { names: [{ givenName: `Bulk${start + index}` }] },
        })),
      );
      added += count;
    }
  }
  return { groupId: group.id, contacts: added };
}
