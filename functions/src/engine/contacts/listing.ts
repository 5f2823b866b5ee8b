/**
 * The Contacts stream's listing over its three lists, under one cursor: the contact groups, read whole
 * at the start of every run (a user has few, and an unchanged one keeps its etag, so the engine skips
 * it), then the connections and the other contacts, each by sync token (`syncTokenSteps` of
 * `../sources/sync-token-listing.ts` pages one of them).
 *
 * Cursor JSON: `{"contacts":1,"tokens":{"connections":…,"otherContacts":…},"groups":[item keys]}`
 * between runs; during a run also `at` (the list in progress and its position, whose page token resumes
 * it) and, in a full listing, `"full":true`.
 * - no cursor: a full listing of the three lists (upserts only), its first batch `fullListing`;
 * - groups: every run lists them; a group the last run saw (`groups`) and this one does not is a delete;
 * - a sync token People no longer accepts (400 FAILED_PRECONDITION, EXPIRED_SYNC_TOKEN, 7 days after its
 *   full sync), an unreadable cursor, or a full listing's saved page token refused: a full listing of
 *   all three lists, `resynced`. Never of one list alone: the engine takes what a full listing does not
 *   report as deleted at source, so the groups and the other list must be in it too. (The shared steps
 *   would resync the one list by themselves: the stream answers `isExpired` itself for that reason.)
 */
import type { Change, ChangeBatch } from "../sources/source";
import {
  readSyncTokenPosition,
  syncTokenSteps,
  type SyncTokenCollection,
  type SyncTokenPosition,
} from "../sources/sync-token-listing";
import { isExpiredSyncToken } from "./people";

export const CONTACTS_CURSOR_VERSION = 1;

/** A list synced by token, by its name in the cursor. */
export interface ContactsList {
  key: string;
  collection: SyncTokenCollection;
}

export interface ContactsListing {
  /** Every user group now, as upserts. */
  readGroups(): Promise<Extract<Change, { type: "upsert" }>[]>;
  lists: readonly ContactsList[];
}

interface ContactsCursor {
  full: boolean;
  tokens: Record<string, string>;
  groups: string[];
  at?: { list: string; position?: SyncTokenPosition };
}

const freshFull = (): ContactsCursor => ({ full: true, tokens: {}, groups: [] });

/** A saved cursor, or undefined when it is not a Contacts cursor of this version. */
export function readContactsCursor(
  cursor: string,
  lists: readonly ContactsList[],
): ContactsCursor | undefined {
  let value: Record<string, unknown>;
  try {
    const parsed = JSON.parse(cursor) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    value = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { contacts, tokens, groups, at, full } = value;
  if (contacts !== CONTACTS_CURSOR_VERSION) return undefined;
  if (typeof tokens !== "object" || tokens === null || Array.isArray(tokens)) return undefined;
  if (!Object.values(tokens).every((token) => typeof token === "string")) return undefined;
  if (!Array.isArray(groups) || !groups.every((key) => typeof key === "string")) return undefined;
  let position: ContactsCursor["at"];
  if (at !== undefined) {
    const { list, position: saved } = (at ?? {}) as { list?: unknown; position?: unknown };
    if (typeof list !== "string" || !lists.some((item) => item.key === list)) return undefined;
    const read = readSyncTokenPosition(saved);
    position = { list, ...(read ? { position: read } : {}) };
  }
  return {
    full: full === true && position !== undefined,
    tokens: { ...(tokens as Record<string, string>) },
    groups: groups as string[],
    ...(position ? { at: position } : {}),
  };
}

export function writeContactsCursor(state: ContactsCursor): string {
  return JSON.stringify({
    contacts: CONTACTS_CURSOR_VERSION,
    tokens: state.tokens,
    groups: state.groups,
    ...(state.at ? { at: state.at } : {}),
    ...(state.at && state.full ? { full: true } : {}),
  });
}

/** The stream's batches from `cursor` on (see the header). */
export async function* contactsChanges(
  listing: ContactsListing,
  cursor: string | null,
): AsyncIterable<ChangeBatch> {
  const saved = cursor === null ? undefined : readContactsCursor(cursor, listing.lists);
  if (cursor !== null && !saved) {
    yield* walk(listing, freshFull(), { first: true, resynced: true });
    return;
  }
  const restart = yield* walk(listing, saved ?? freshFull(), { first: !saved, resynced: false });
  if (restart) yield* walk(listing, freshFull(), { first: true, resynced: true });
}

/** Where a list starts in this run: its saved position, else its changes since its token, else in full. */
function startOf(state: ContactsCursor, key: string, resumed: boolean): SyncTokenPosition | undefined {
  if (resumed && state.at?.position) return state.at.position;
  const token = state.full ? undefined : state.tokens[key];
  return token ? { mode: "incremental", syncToken: token } : undefined;
}

/**
 * One run from `start`; returns true when it must start over as a resynced full listing (a sync token
 * expired, or a full listing's saved page token was refused).
 */
async function* walk(
  listing: ContactsListing,
  start: ContactsCursor,
  flags: { first: boolean; resynced: boolean },
): AsyncGenerator<ChangeBatch, boolean> {
  const { lists } = listing;
  let state = start;
  let { first, resynced } = flags;
  const batch = (changes: Change[], done: boolean): ChangeBatch => {
    const out: ChangeBatch = {
      changes,
      nextCursor: writeContactsCursor(state),
      ...(first && start.full ? { fullListing: true } : {}),
      ...(resynced ? { resynced: true } : {}),
      ...(done ? { done: true } : {}),
    };
    first = false;
    resynced = false;
    return out;
  };
  let from = 0;
  const resumeAt = state.at?.list;
  if (resumeAt) {
    from = lists.findIndex((list) => list.key === resumeAt);
  } else {
    const upserts = await listing.readGroups();
    const keys = upserts.map((change) => change.item.itemKey);
    const now = new Set(keys);
    // A full listing only upserts: what it does not report, the engine marks deleted itself.
    const deletes: Change[] = state.full
      ? []
      : state.groups.filter((key) => !now.has(key)).map((itemKey) => ({ type: "delete", itemKey }));
    const firstList = lists[0];
    state = { ...state, groups: keys, ...(firstList ? { at: { list: firstList.key } } : {}) };
    yield batch([...upserts, ...deletes], !firstList);
  }
  for (let index = from; index < lists.length; index += 1) {
    const list = lists[index] as ContactsList;
    const next = lists[index + 1];
    try {
      for await (const step of syncTokenSteps(list.collection, startOf(state, list.key, index === from))) {
        // Only a full listing's refused saved page token starts one over here: the whole stream does.
        if (step.resynced) return true;
        if (!step.done) state = { ...state, at: { list: list.key, position: step.next } };
        else if (step.next.mode === "incremental") {
          const tokens = { ...state.tokens, [list.key]: step.next.syncToken };
          state = next
            ? { full: state.full, tokens, groups: state.groups, at: { list: next.key } }
            : { full: false, tokens, groups: state.groups };
        }
        yield batch(step.changes, step.done && !next);
      }
    } catch (error) {
      if (isExpiredSyncToken(error)) return true;
      throw error;
    }
  }
  return false;
}
