/**
 * The page sizes and batch sizes of the Calendar calls the engine makes, which its quota costs per event
 * follow (`../eta/work-costs.ts`). Google's reference: `events.list` and `calendarList.list` return at most
 * 2,500 entries a page ("maxResults", https://developers.google.com/workspace/calendar/api/v3/reference/events/list);
 * one `events.import` writes one event.
 */

/** Events per `events.list` page: Calendar's maximum. */
export const CALENDAR_EVENTS_PAGE_SIZE = 2_500;

/** Calendars per `calendarList.list` page, and ACL rules per `acl.list` page: the maximum, 250. */
export const CALENDAR_LIST_PAGE_SIZE = 250;
