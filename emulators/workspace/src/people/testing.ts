/** Test helpers: the official People client on a harness, with the contacts scopes installed. */
import { people_v1 } from "@googleapis/people";
import { DEFAULT_GRANTED_SCOPES, SCOPES } from "../auth";
import { TEST_DOMAIN, type Harness } from "../testing/harness";

export const PEOPLE_SCOPES = [SCOPES.contacts, SCOPES.contactsReadonly, SCOPES.contactsOtherReadonly];

/** Installs the app with the default scopes and the People API's. */
export async function grantPeopleScopes(harness: Harness): Promise<void> {
  const { status } = await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:install`, {
    scopes: [...DEFAULT_GRANTED_SCOPES, ...PEOPLE_SCOPES],
  });
  if (status !== 200) throw new Error(`app:install answered ${status}`);
}

export function peopleClient(
  harness: Harness,
  subject: string,
  scopes: string[] = [SCOPES.contacts],
): people_v1.People {
  return new people_v1.People({ auth: harness.jwt(subject, scopes), rootUrl: `${harness.url}/` });
}
