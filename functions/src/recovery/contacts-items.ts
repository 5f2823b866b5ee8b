/**
 * Contacts' part of a recovery: a page of entries goes to the engine's restorer together
 * (engine/contacts/restorer.ts: `batchCreateContacts` 200 a call, then photos, then memberships), one
 * page after another, as Google asks of one user's writes.
 *
 * - Memberships name the backed-up groups by resource name; their names are read once per delivery from
 *   the catalog's group entries, which come after the contacts in item-key order.
 * - Creating a contact is not idempotent, so each contact a recovery creates carries the recovery's id in
 *   its client data, signed with the recovery's secret (engine/contacts/restore-lookups.ts `RestoreTag`):
 *   a page that a delivery left "importing" first looks its contacts up by that tag, and only those not
 *   found are created again. A value the user wrote themselves is not taken for one.
 * - Original place ("overwrite"): a contact the user still has (the same resource name) is skipped as
 *   already there; the others are created, back in their groups. "Separate folder": every contact is
 *   created and put into a group of the folder's name as well.
 * - A photo or a group Google refused, or an other contact restored as a contact, is noted in the report.
 */
import { RECOVERY_ITEM_REASONS } from "@alpvault/contracts/recovery";
import { itemsAfter } from "../backups/service";
import {
  type ContactRestoreOutcome,
  type ContactsRestoreEntry,
  type ContactsRestoreTarget,
} from "../engine/contacts/restorer";
import { backedUpGroupNames, isPersonEntry } from "../engine/contacts/people";
import type { RestoreTag } from "../engine/contacts/restore-lookups";
import type { CatalogItem } from "../engine/runner/catalog";
import { contentOf, record, type ItemOutcome, type PageRestorer, type RecoveryRestore } from "./item-context";
import { withContents } from "./restore-item";

/** What the engine's restorer offers a recovery. */
export interface ContactsEntriesRestorer {
  restore(
    entries: readonly ContactsRestoreEntry[],
    target: ContactsRestoreTarget,
    options?: { groupNames?: Readonly<Record<string, string>> },
  ): Promise<ContactRestoreOutcome[]>;
  tagged(tag: RestoreTag): Promise<Map<string, string>>;
  existing(resourceNames: readonly string[]): Promise<Set<string>>;
}

interface PageEntry {
  itemKey: string;
  importing: boolean;
  from: string;
  entry: ContactsRestoreEntry;
}

export class ContactsItems implements PageRestorer {
  /** What earlier deliveries created, by backed-up resource name (read once, when a page needs it). */
  private created?: Promise<Map<string, string>>;
  /** The backed-up groups' names, by resource name (read once). */
  private groupNames?: Promise<Record<string, string>>;

  constructor(
    private readonly restorer: ContactsEntriesRestorer,
    private readonly target: ContactsRestoreTarget & { tag: RestoreTag },
    /** Original place: contacts the user still has are skipped. */
    private readonly skipExisting: boolean,
  ) {}

  async restorePage(
    restore: RecoveryRestore,
    items: readonly { itemKey: string; item: CatalogItem; importing: boolean }[],
  ): Promise<Map<string, ItemOutcome>> {
    const results = new Map<string, ItemOutcome>();
    const read = await withContents(restore, items, results);
    let entries: PageEntry[] = read.map(({ itemKey, item, importing, content }) => ({
      itemKey,
      importing,
      from: item.current.metadata.resourceName ?? "",
      entry: { metadata: item.current.metadata, content },
    }));
    entries = await this.settleFound(restore, entries, results);
    if (entries.length === 0) return results;
    await Promise.all(entries.map(({ itemKey }) => record(restore, itemKey, { state: "importing" })));
    const outcomes = await this.restorer.restore(
      entries.map(({ entry }) => entry),
      this.target,
      { groupNames: await (this.groupNames ??= this.readGroupNames(restore)) },
    );
    await Promise.all(
      entries.map(async ({ itemKey }, index) => {
        const outcome = outcomes[index];
        if (!outcome?.restored) {
          results.set(itemKey, {
            outcome: "failed",
            reason: outcome?.reason
              ? RECOVERY_ITEM_REASONS.googleRefused(outcome.reason)
              : RECOVERY_ITEM_REASONS.stopped,
          });
          return;
        }
        results.set(itemKey, { outcome: "restored" });
        const notes = [...(outcome.note ? [outcome.note] : []), ...outcome.problems];
        await record(restore, itemKey, {
          state: "done",
          targetId: outcome.resourceName ?? "",
          ...(notes.length > 0 ? { notes } : {}),
        });
      }),
    );
    return results;
  }

  /**
   * The entries of a page that need no create: those an earlier delivery created (found by the
   * recovery's tag) and, to the original place, the contacts the user still has. Answers the rest.
   */
  private async settleFound(
    restore: RecoveryRestore,
    entries: PageEntry[],
    results: Map<string, ItemOutcome>,
  ): Promise<PageEntry[]> {
    const created = entries.some((entry) => entry.importing)
      ? await (this.created ??= this.restorer.tagged(this.target.tag))
      : new Map<string, string>();
    // Contacts and other contacts the original place may still have (an other contact restores as a
    // contact: without this, every recovery to the original place would create it again).
    const contacts = entries.filter(
      ({ entry, from }) => isPersonEntry(entry.metadata) && from && !created.has(from),
    );
    const there =
      this.skipExisting && contacts.length > 0
        ? await this.restorer.existing(contacts.map(({ from }) => from))
        : new Set<string>();
    const rest: PageEntry[] = [];
    for (const entry of entries) {
      const made = entry.importing ? created.get(entry.from) : undefined;
      if (made) {
        await record(restore, entry.itemKey, { state: "done", targetId: made });
        results.set(entry.itemKey, { outcome: "restored" });
      } else if (isPersonEntry(entry.entry.metadata) && there.has(entry.from)) {
        const reason = RECOVERY_ITEM_REASONS.alreadyThere;
        await record(restore, entry.itemKey, { state: "done", targetId: entry.from, reason });
        results.set(entry.itemKey, { outcome: "skipped", reason });
      } else {
        rest.push(entry);
      }
    }
    return rest;
  }

  /** Every backed-up group's name, by its resource name, from the catalog's group entries. */
  private readGroupNames(restore: RecoveryRestore): Promise<Record<string, string>> {
    const { scope, recovery } = restore;
    return backedUpGroupNames(
      (after, size) => itemsAfter(scope, recovery.resourceId, restore.kind, after, size),
      (item) => contentOf(restore, item),
    );
  }
}
