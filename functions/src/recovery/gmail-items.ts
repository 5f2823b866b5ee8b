/**
 * Gmail's part of a recovery: a message is imported under its labels (engine/gmail/restorer.ts), unless the
 * mailbox holds its Message-ID already — left "importing" by a delivery that stopped, or a recovery that
 * overwrites, which then skips it as already there. Labels take their current name in the backed-up
 * mailbox (read once per delivery); a failed recovery removes the labels it created and left empty.
 */
import { RECOVERY_ITEM_REASONS } from "@alpvault/contracts/recovery";
import { mailLabelNames } from "../backups/service";
import { messageIdOf, type GmailRestorer } from "../engine/gmail/restorer";
import type { CatalogItem } from "../engine/runner/catalog";
import {
  contentOf,
  record,
  type ItemOutcome,
  type ItemByItemRestorer,
  type RecoveryRestore,
} from "./item-context";

export class GmailItems implements ItemByItemRestorer {
  /** The backed-up mailbox's label names now (by id), read once: restored labels take their current name. */
  private labelNames?: Promise<Record<string, string>>;

  constructor(private readonly restorer: GmailRestorer) {}

  async restore(
    restore: RecoveryRestore,
    itemKey: string,
    item: CatalogItem,
    importing: boolean,
  ): Promise<ItemOutcome> {
    const { scope, recovery } = restore;
    const current = item.current;
    const raw = await contentOf(restore, item);
    const messageId = messageIdOf(raw);
    if (messageId && (importing || recovery.method === "overwrite")) {
      const existing = await this.restorer.find(messageId);
      if (existing) {
        if (importing) {
          await record(restore, itemKey, { state: "done", targetId: existing });
          return { outcome: "restored" };
        }
        const reason = RECOVERY_ITEM_REASONS.alreadyThere;
        await record(restore, itemKey, { state: "done", targetId: existing, reason });
        return { outcome: "skipped", reason };
      }
    }
    this.labelNames ??= mailLabelNames(scope, recovery.resourceId).then((names) => names ?? {});
    const labelIds = await this.restorer.labelIds(
      current.metadata.labels ?? [],
      recovery.folderName,
      await this.labelNames,
    );
    await record(restore, itemKey, { state: "importing" });
    const targetId = await this.restorer.import(raw, labelIds);
    await record(restore, itemKey, { state: "done", targetId });
    return { outcome: "restored" };
  }

  async tidyAfterFailure(): Promise<void> {
    await this.restorer.removeEmptyCreatedLabels();
  }
}
