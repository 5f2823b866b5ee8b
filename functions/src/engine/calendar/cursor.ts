/**
 * The Calendar source's cursor: JSON `{"v":1,"calendars":[…],"tokens":{…},"at":{…}}`.
 * - `calendars`: the calendars whose calendar item the last listing of the calendar list saw (the user's
 *   owned calendars then): one gone from the list since is a delete of its calendar item;
 * - `tokens`: each calendar's events sync token, once a listing of its events finished (its next run
 *   lists only what changed since);
 * - `at`: the calendar a run is in the middle of and where its listing is (`position`; absent: at its
 *   start), so a run that stopped resumes there; absent between runs, so the next run starts with the
 *   calendar list again.
 */
import { readSyncTokenPosition, type SyncTokenPosition } from "../sources/sync-token-listing";

export const CALENDAR_CURSOR_VERSION = 1;

export interface CalendarCursor {
  v: typeof CALENDAR_CURSOR_VERSION;
  calendars: string[];
  tokens: Record<string, string>;
  at?: { calendarId: string; position?: SyncTokenPosition };
}

const EMPTY: CalendarCursor = { v: CALENDAR_CURSOR_VERSION, calendars: [], tokens: {} };

/**
 * A saved cursor as the source reads it: `fresh` when there is none (the first backup), `unreadable` when
 * it is not one (the source then lists everything again, as after an expired token).
 */
export function readCalendarCursor(cursor: string | null): {
  state: CalendarCursor;
  fresh: boolean;
  unreadable: boolean;
} {
  if (cursor === null) return { state: EMPTY, fresh: true, unreadable: false };
  let value: Partial<Record<keyof CalendarCursor, unknown>> | null;
  try {
    value = JSON.parse(cursor) as typeof value;
  } catch {
    value = null;
  }
  const tokens = value?.tokens;
  const calendars = value?.calendars;
  if (
    value?.v !== CALENDAR_CURSOR_VERSION ||
    typeof tokens !== "object" ||
    tokens === null ||
    !Object.values(tokens).every((token) => typeof token === "string") ||
    !Array.isArray(calendars) ||
    !calendars.every((id) => typeof id === "string")
  ) {
    return { state: EMPTY, fresh: false, unreadable: true };
  }
  const at = value.at as { calendarId?: unknown; position?: unknown } | undefined;
  const position = readSyncTokenPosition(at?.position);
  return {
    state: {
      v: CALENDAR_CURSOR_VERSION,
      calendars: calendars as string[],
      tokens: { ...(tokens as Record<string, string>) },
      ...(typeof at?.calendarId === "string"
        ? { at: { calendarId: at.calendarId, ...(position ? { position } : {}) } }
        : {}),
    },
    fresh: false,
    unreadable: false,
  };
}

export const writeCalendarCursor = (state: CalendarCursor): string => JSON.stringify(state);
