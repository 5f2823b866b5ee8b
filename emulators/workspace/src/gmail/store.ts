/**
 * Gmail mailboxes: messages (raw RFC 822 bytes), labels and history, per user.
 *
 * The methods below are the contract the generator and the admin API rely on; the Gmail routes build on
 * the same store.
 */
export type GmailSnapshot = Record<string, unknown>;

export interface InsertOptions {
  /** Label ids (system ids like INBOX, SENT, UNREAD, or ids of user labels). Default: INBOX, UNREAD. */
  labelIds?: string[];
  /** Milliseconds since the epoch; default: the Date header, else now. */
  internalDate?: number;
}

export class GmailStore {
  /** Adds a message to a user's mailbox (creating the mailbox), recording a messageAdded history record. */
  insertMessage(
    _userId: string,
    _raw: Buffer,
    _options: InsertOptions = {},
  ): { id: string; threadId: string } {
    throw new Error("not implemented");
  }

  /** Creates a user label (or returns the existing one with that name). */
  createLabel(_userId: string, _name: string): { id: string } {
    throw new Error("not implemented");
  }

  snapshot(): GmailSnapshot {
    return {};
  }

  restore(_snapshot: GmailSnapshot): void {}

  /** Forgets a deleted user's mailbox. */
  dropUser(_userId: string): void {}
}
