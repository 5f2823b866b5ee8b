/**
 * Calendar's part of a recovery: a page of entries goes to the engine's restorer together
 * (engine/calendar/restorer.ts), which puts calendars first, then series masters and single events, then
 * the changed and cancelled instances of a series. Pages come in item-key order (`calendar:` before
 * `event:`, a series' master before its instances, whose ids extend the master's), so what an entry
 * depends on is restored on the same page or an earlier one; what an earlier delivery did is read back
 * from the ledger (a recreated calendar's new id) and the catalog (a series' backed-up master).
 *
 * - Original place ("overwrite"): an event goes back into its calendar when the target user owns it (an
 *   import updates the event holding that iCalUID, so a repeat duplicates nothing); a calendar the user
 *   still owns is skipped as already there; one they do not own is recreated with its settings and sharing,
 *   and its events go into it.
 * - A new calendar ("folder"): every event goes into one calendar named as asked, marked with the
 *   recovery's id so that every delivery fills the same one; calendar entries are not recreated then.
 * - A calendar entry left "importing" by a delivery that stopped may have been recreated already (Google's
 *   calendars.insert has no key to find it by): the next delivery takes a calendar the user owns with
 *   exactly the entry's settings for it instead of making a second one. Events are never imported twice.
 */
import type { calendar_v3 } from "@googleapis/calendar";
import { RECOVERY_ITEM_REASONS } from "@alpvault/contracts/recovery";
import { itemsByKey } from "../backups/service";
import { calendarItemKey, eventItemKey, isCalendarEntry } from "../engine/calendar/entries";
import {
  ALREADY_THERE,
  type CalendarRestoreEntry,
  type CalendarRestoreMemory,
  type CalendarRestoreOutcome,
} from "../engine/calendar/restorer";
import type { CatalogItem } from "../engine/runner/catalog";
import {
  contentOf,
  heldAtRecoveryDate,
  record,
  type ItemOutcome,
  type PageRestorer,
  type RecoveryRestore,
} from "./item-context";
import { readLedger } from "./repo";
import { withContents } from "./restore-item";

/** What the engine's restorer offers a recovery. */
export interface CalendarEntriesRestorer {
  restore(entries: readonly CalendarRestoreEntry[]): Promise<CalendarRestoreOutcome[]>;
}

/** The description that marks the calendar a recovery into a new calendar fills. */
export const recoveryCalendarMarker = (recoveryId: string): string =>
  `Restored by Alpvault (recovery ${recoveryId})`;

/** Our reasons, in the report's words, for the engine's answers that are not Google's. */
const ENGINE_REASONS: Record<string, string> = {
  "unreadable-content": RECOVERY_ITEM_REASONS.integrity,
  "series-not-restored": RECOVERY_ITEM_REASONS.seriesNotRestored,
  "no-ical-uid": RECOVERY_ITEM_REASONS.noCalendarUid,
};

function outcomeOf(outcome: CalendarRestoreOutcome | undefined): ItemOutcome {
  if (!outcome) return { outcome: "failed", reason: RECOVERY_ITEM_REASONS.stopped };
  if (outcome.restored) return { outcome: "restored" };
  if (outcome.reason === ALREADY_THERE)
    return { outcome: "skipped", reason: RECOVERY_ITEM_REASONS.alreadyThere };
  return {
    outcome: "failed",
    reason: ENGINE_REASONS[outcome.reason] ?? RECOVERY_ITEM_REASONS.googleRefused(outcome.reason),
  };
}

/** What earlier deliveries of the recovery did, read back for the engine's restorer. */
export function recoveryMemory(restore: RecoveryRestore): CalendarRestoreMemory {
  const { scope, recovery } = restore;
  return {
    async recreated(calendarId) {
      const entry = await readLedger(scope, recovery.recoveryId, calendarItemKey(calendarId));
      return entry?.state === "done" && !entry.reason ? entry.targetId : undefined;
    },
    async series(calendarId, eventId) {
      const [found] = await itemsByKey(scope, recovery.resourceId, [eventItemKey(calendarId, eventId)]);
      const item = await heldAtRecoveryDate(restore, found);
      if (!item) return undefined;
      return JSON.parse((await contentOf(restore, item)).toString("utf8")) as calendar_v3.Schema$Event;
    },
  };
}

export class CalendarItems implements PageRestorer {
  private restorer?: CalendarEntriesRestorer;

  constructor(
    /** The engine's restorer, made once, with what earlier deliveries did. */
    private readonly makeRestorer: (memory: CalendarRestoreMemory) => CalendarEntriesRestorer,
    /** Into one new calendar: calendar entries are not recreated. */
    private readonly intoNewCalendar: boolean,
  ) {}

  async restorePage(
    restore: RecoveryRestore,
    items: readonly { itemKey: string; item: CatalogItem; importing: boolean }[],
  ): Promise<Map<string, ItemOutcome>> {
    const results = new Map<string, ItemOutcome>();
    const open = items.filter(({ itemKey, item }) => {
      if (!(this.intoNewCalendar && isCalendarEntry(item.current.metadata))) return true;
      results.set(itemKey, { outcome: "skipped", reason: RECOVERY_ITEM_REASONS.calendarNotRecreated });
      return false;
    });
    const entries = (await withContents(restore, open, results)).map(
      ({ itemKey, item, content, importing }) => ({
        itemKey,
        entry: {
          metadata: item.current.metadata,
          content,
          ...(importing ? { resumed: true } : {}),
        } satisfies CalendarRestoreEntry,
      }),
    );
    if (entries.length === 0) return results;
    await Promise.all(entries.map(({ itemKey }) => record(restore, itemKey, { state: "importing" })));
    this.restorer ??= this.makeRestorer(recoveryMemory(restore));
    const outcomes = await this.restorer.restore(entries.map(({ entry }) => entry));
    await Promise.all(
      entries.map(async ({ itemKey }, index) => {
        const outcome = outcomes[index];
        const result = outcomeOf(outcome);
        results.set(itemKey, result);
        // What was not restored is recorded with its reason when it is counted.
        if (!outcome?.restored) return;
        const refused = outcome.sharing?.refused ?? [];
        await record(restore, itemKey, {
          state: "done",
          targetId: outcome.eventId || outcome.calendarId,
          ...(refused.length > 0
            ? { unshared: refused.map(({ scope, role, reason }) => ({ to: scope, role, reason })) }
            : {}),
        });
      }),
    );
    return results;
  }
}
