/**
 * The page sizes and batch sizes of the People API calls the engine makes, which its quota costs per
 * contact follow (`../eta/work-costs.ts`). Google's reference: `people.connections.list` returns at most
 * 1,000 connections a page ("pageSize",
 * https://developers.google.com/people/api/rest/v1/people.connections/list); `batchCreateContacts` takes at
 * most 200 contacts a call (https://developers.google.com/people/api/rest/v1/people/batchCreateContacts).
 */

/** Contacts per `people.connections.list` (and `otherContacts.list`) page: the maximum. */
export const PEOPLE_CONNECTIONS_PAGE_SIZE = 1_000;

/** Contacts per `people.batchCreateContacts` call: Google's maximum. */
export const PEOPLE_BATCH_CREATE_SIZE = 200;
