/**
 * One resource as one source: a mailbox resource is its Gmail and its My Drive, a shared drive is its
 * Drive. The streams are walked one after the other in a fixed order, under one cursor, so a backup run
 * of a resource is one run with one lease and one checkpoint whatever it holds.
 *
 * The cursor is JSON `{"v":1,"at":<stream>|null,"cursors":{<stream>:<its cursor>|null}}`:
 * - `cursors` keeps each stream's own cursor (its incremental cursor once it finished a listing);
 * - `at` is the stream a run is in the middle of (a resumed run goes on from it); null between runs, so
 *   the next run starts with the first stream again.
 * A stream added later (a policy now also covering Drive) has no cursor and gets a full listing; a stream
 * no longer covered keeps its cursor in the JSON, unused, until it is covered again.
 *
 * The engine fetches the items of the batch in hand, so `fetch` goes to the stream that listed the batch.
 * Item keys of different streams do not collide (Gmail message ids are 16 hex digits, Drive file ids are
 * longer and not hex-only), and the catalog keeps each item's kind.
 */
import { isServiceId } from "@alpvault/contracts/services";
import { FormatError } from "../format/errors";
import {
  StreamError,
  type ChangeBatch,
  type FetchedItem,
  type ItemRef,
  type Source,
  type SourceKind,
} from "./source";

export const RESOURCE_CURSOR_VERSION = 1;

interface ResourceCursor {
  v: typeof RESOURCE_CURSOR_VERSION;
  at: SourceKind | null;
  cursors: Partial<Record<SourceKind, string | null>>;
}

/** Reads a resource cursor (`null`: nothing backed up yet). A cursor that is not one is a format error. */
export function parseResourceCursor(cursor: string | null): ResourceCursor {
  if (cursor === null) return { v: RESOURCE_CURSOR_VERSION, at: null, cursors: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    throw new FormatError("The resource cursor is not JSON.");
  }
  const value = parsed as Partial<ResourceCursor> | null;
  if (
    typeof value !== "object" ||
    value === null ||
    value.v !== RESOURCE_CURSOR_VERSION ||
    typeof value.cursors !== "object" ||
    value.cursors === null ||
    (value.at !== null && !isServiceId(value.at))
  ) {
    throw new FormatError("The resource cursor is not a version 1 cursor.");
  }
  return { v: RESOURCE_CURSOR_VERSION, at: value.at, cursors: { ...value.cursors } };
}

export class ResourceSource implements Source {
  readonly kind: SourceKind;
  /** The stream whose batch the engine is working on. */
  private current: Source;

  /**
   * `streams` in the order they are backed up (Gmail before Drive); at most one per kind. `retry`: items
   * the previous run could not back up, fetched again first (one batch per stream, before its listing;
   * the cursor does not move for it); `refetch: true` for items whose stored objects were found damaged
   * (their content is stored again even though the catalog has it).
   */
  constructor(
    private readonly streams: readonly Source[],
    private readonly retry: readonly { kind: SourceKind; itemKey: string; refetch?: boolean }[] = [],
  ) {
    if (streams.length === 0) throw new RangeError("A resource source needs at least one stream.");
    if (new Set(streams.map((stream) => stream.kind)).size !== streams.length) {
      throw new RangeError("One stream per kind.");
    }
    this.kind = streams[0]!.kind;
    this.current = streams[0]!;
  }

  async *listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    const state = parseResourceCursor(cursor);
    const start = state.at === null ? 0 : this.streams.findIndex((stream) => stream.kind === state.at);
    for (let index = Math.max(start, 0); index < this.streams.length; index++) {
      const stream = this.streams[index]!;
      const last = index === this.streams.length - 1;
      const after = last ? null : this.streams[index + 1]!.kind;
      this.current = stream;
      const again = new Map<string, boolean>();
      for (const item of this.retry) {
        if (item.kind !== stream.kind) continue;
        again.set(item.itemKey, (again.get(item.itemKey) ?? false) || item.refetch === true);
      }
      if (again.size > 0) {
        yield {
          changes: [...again].map(([itemKey, refetch]) => ({
            type: "upsert" as const,
            item: refetch ? { itemKey, refetch } : { itemKey },
          })),
          nextCursor: JSON.stringify(state),
          stream: stream.kind,
          streamDone: false,
        };
      }
      let finished = false;
      for await (const batch of this.listStream(stream, state.cursors[stream.kind] ?? null)) {
        state.cursors[stream.kind] = batch.nextCursor;
        finished = batch.done === true;
        // After a stream's last batch the run moves on to the next stream (or, after the last, is done).
        state.at = finished ? after : stream.kind;
        const { done: _done, ...rest } = batch;
        yield {
          ...rest,
          nextCursor: JSON.stringify(state),
          stream: stream.kind,
          streamDone: finished,
          ...(finished && last ? { done: true } : {}),
        };
        if (finished) break;
      }
      if (!finished) {
        // A stream that ended without saying so: move on all the same, so no run starts in its middle.
        state.at = after;
        yield {
          changes: [],
          nextCursor: JSON.stringify(state),
          stream: stream.kind,
          streamDone: true,
          ...(last ? { done: true } : {}),
        };
      }
    }
  }

  /** A stream's batches; a failure of its listing is a `StreamError` naming it. */
  private async *listStream(stream: Source, cursor: string | null): AsyncGenerator<ChangeBatch> {
    try {
      yield* stream.listChanges(cursor);
    } catch (error) {
      throw new StreamError(stream.kind, error);
    }
  }

  fetch(item: ItemRef): Promise<FetchedItem> {
    return this.current.fetch(item);
  }

  cursorAfter(cursor: string | null, stream: SourceKind): { cursor: string; done: boolean } {
    const state = parseResourceCursor(cursor);
    const index = this.streams.findIndex((candidate) => candidate.kind === stream);
    const next = index >= 0 && index < this.streams.length - 1 ? this.streams[index + 1]!.kind : null;
    // The failed stream keeps its saved cursor; the run goes on with the next stream, or is over.
    state.at = next;
    return { cursor: JSON.stringify(state), done: next === null };
  }
}
