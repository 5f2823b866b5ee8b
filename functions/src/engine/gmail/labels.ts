/**
 * A mailbox's labels for one run: names by id from `labels.list` (cached for the run, loaded again when
 * a label appears that the cache does not know), and the label rename check (see `source.ts`'s header).
 */
import type { gmail_v1 } from "@googleapis/gmail";
import type { Catalog } from "../runner/catalog";
import type { LabelRename, MailLabel } from "../sources/source";

/** One Gmail call through the run's caller, as the mailbox owner (`method`: Google's method id). */
export type GmailCall = <T>(method: string, send: () => Promise<T>) => Promise<T>;

/** Where the resource's label names are kept (see `GmailSourceOptions.labelNames`). */
export interface LabelNameStore {
  catalog: Pick<Catalog, "mailLabelNames" | "renameMailLabels" | "mailLabelsCheckedAt">;
  resourceId: string;
}

/** An unchanged mailbox's labels are compared with Gmail's at most this often (see `source.ts`'s header). */
export const LABEL_CHECK_MS = 6 * 60 * 60_000;

/**
 * The user labels whose name is not the one `previous` has (same id), from `labels.list`'s answer. System
 * labels (INBOX, CATEGORY_…) cannot be renamed and are left out.
 */
export function labelRenames(
  previous: Record<string, string>,
  current: Record<string, string>,
): LabelRename[] {
  return Object.entries(current).flatMap(([id, to]) => {
    const from = previous[id];
    return from !== undefined && from !== to ? [{ id, from, to }] : [];
  });
}

export class MailLabels {
  /** Label id → name, loaded once per run (and again when a label appears that it does not know). */
  private labelNames?: Map<string, string>;
  /** The user labels' names as `labels.list` last answered (id → name). */
  private userLabels: Record<string, string> = {};

  constructor(
    private readonly gmail: gmail_v1.Gmail,
    private readonly call: GmailCall,
    private readonly labelStore: LabelNameStore | undefined,
    private readonly now: () => number,
  ) {}

  private async loadLabels(): Promise<Map<string, string>> {
    const labels = (
      await this.call("gmail.users.labels.list", () => this.gmail.users.labels.list({ userId: "me" }))
    ).data.labels;
    this.labelNames = new Map(
      (labels ?? []).flatMap((label) => (label.id ? [[label.id, label.name ?? label.id] as const] : [])),
    );
    this.userLabels = Object.fromEntries(
      (labels ?? []).flatMap((label) =>
        label.id && label.name && label.type !== "system" ? [[label.id, label.name] as const] : [],
      ),
    );
    return this.labelNames;
  }

  /**
   * Compares the user labels' names with those the last run saw and records renames in the catalog (see
   * the header). The names are saved only when they differ, so an unchanged mailbox writes nothing.
   */
  async noticeRenames(): Promise<void> {
    const store = this.labelStore;
    if (!store) return;
    await this.loadLabels();
    const current = this.userLabels;
    const previous = await store.catalog.mailLabelNames(store.resourceId);
    const same =
      previous !== undefined &&
      Object.keys(previous).length === Object.keys(current).length &&
      Object.entries(current).every(([id, name]) => previous[id] === name);
    const checkedAt = new Date(this.now()).toISOString();
    // Unchanged names are written again only to record the check (once per LABEL_CHECK_MS at most).
    await store.catalog.renameMailLabels(
      store.resourceId,
      same ? [] : labelRenames(previous ?? {}, current),
      current,
      checkedAt,
    );
  }

  /** True when the mailbox's labels were never checked, or not for `LABEL_CHECK_MS`. */
  async labelCheckDue(): Promise<boolean> {
    const store = this.labelStore;
    if (!store) return false;
    const at = await store.catalog.mailLabelsCheckedAt(store.resourceId);
    return at === undefined || this.now() - Date.parse(at) >= LABEL_CHECK_MS;
  }

  /** The labels of `ids`, named. */
  async resolveLabels(ids: string[]): Promise<MailLabel[]> {
    const cached = this.labelNames;
    let names = cached ?? (await this.loadLabels());
    if (cached && ids.some((id) => !names.has(id))) names = await this.loadLabels();
    return ids.map((id) => ({ id, name: names.get(id) ?? id }));
  }
}
