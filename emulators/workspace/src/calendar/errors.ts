/**
 * Calendar's error answers, as the Calendar "Handle API errors" page
 * (https://developers.google.com/workspace/calendar/api/guides/errors) shows them: the 410 for a sync token
 * no longer accepted, 404 "Not Found", 409 "The requested identifier already exists.", 410 "Resource has
 * been deleted", 400 timeRangeEmpty. Where the page shows no wording (parameter combinations, event type
 * rules), the message is ours and the reason Google's generic one.
 */
import { GoogleApiError } from "../http";

export function fullSyncRequired(): GoogleApiError {
  return new GoogleApiError(
    410,
    "Sync token is no longer valid, a full sync is required.",
    "fullSyncRequired",
    {
      domain: "calendar",
      extra: { locationType: "parameter", location: "syncToken" },
    },
  );
}

export function calendarNotFound(): GoogleApiError {
  return new GoogleApiError(404, "Not Found", "notFound");
}

export function duplicateId(): GoogleApiError {
  return new GoogleApiError(409, "The requested identifier already exists.", "duplicate");
}

export function alreadyDeleted(): GoogleApiError {
  return new GoogleApiError(410, "Resource has been deleted", "deleted");
}

export function forbiddenCalendar(): GoogleApiError {
  return new GoogleApiError(403, "Forbidden", "forbidden");
}

export function timeRangeEmpty(): GoogleApiError {
  return new GoogleApiError(400, "The specified time range is empty.", "timeRangeEmpty", {
    domain: "calendar",
    extra: { locationType: "parameter", location: "timeMax" },
  });
}

export function invalidValue(message: string): GoogleApiError {
  return new GoogleApiError(400, message, "invalid");
}

export function required(message: string): GoogleApiError {
  return new GoogleApiError(400, message, "required");
}

export function invalidPageToken(): GoogleApiError {
  return new GoogleApiError(400, "Invalid page token value.", "invalid", {
    extra: { locationType: "parameter", location: "pageToken" },
  });
}

/** A parameter Google refuses together with `syncToken` (the list methods' reference pages). */
export function notWithSyncToken(parameter: string): GoogleApiError {
  return new GoogleApiError(400, `The parameter ${parameter} cannot be used with syncToken.`, "invalid", {
    extra: { locationType: "parameter", location: parameter },
  });
}
