/**
 * Restoring messages into a mailbox (docs/requirements.md#screens-and-navigation recovery): `messages.import` (a media upload) of the backed-up bytes with
 * `internalDateSource=dateHeader` and `neverMarkSpam`, under the message's labels (system labels kept; user
 * labels found by name or created) plus, for "separate folder", a label named after the folder. A user
 * label is named as it is called now in the backed-up mailbox (`currentNames`, the resource's label names
 * by id: a label renamed after the version was captured keeps its id), else as the version has it. Spam, trash,
 * draft and chat labels are not restored. Every call goes through the quota-aware caller; the import (a
 * POST) is retried only when Google did not execute it.
 */
import { Readable } from "node:stream";
import type { gmail_v1 } from "@googleapis/gmail";
import type { GoogleCaller } from "../google/caller";
import { headerBlock, parseHeaders } from "./mail-headers";
import type { MailLabel } from "../sources/source";
import { SharedByKey } from "../../lib/parallel";

const DROPPED_SYSTEM_LABELS = new Set(["SPAM", "TRASH", "DRAFT", "CHAT"]);
const SYSTEM_LABEL = /^(INBOX|SENT|UNREAD|STARRED|IMPORTANT|CATEGORY_[A-Z]+)$/;

/** The Message-ID header of a raw message, without its angle brackets (undefined when it has none). */
export function messageIdOf(raw: Buffer): string | undefined {
  const header = parseHeaders(headerBlock(raw)).find((entry) => entry.name.toLowerCase() === "message-id");
  const value = header?.value.trim().replace(/^<|>$/g, "");
  return value ? value : undefined;
}

export class GmailRestorer {
  private labels?: Promise<Map<string, string>>;
  /** Labels found or created, by lower-cased name: items restored at once share one creation. */
  private readonly creating = new SharedByKey<string>();
  /** The ids of the labels this restorer created (not found): a failed recovery may leave them empty. */
  private readonly created: string[] = [];

  constructor(
    private readonly gmail: gmail_v1.Gmail,
    private readonly user: string,
    private readonly caller: GoogleCaller,
  ) {}

  private call<T>(method: string, idempotent: boolean, send: () => Promise<T>): Promise<T> {
    return this.caller.call({ api: "gmail", user: this.user, method, idempotent }, send);
  }

  /** The target's label id of a user label name, created when missing. */
  labelId(name: string): Promise<string> {
    return this.creating.get(name.toLowerCase(), () => this.findOrCreate(name));
  }

  private async findOrCreate(name: string): Promise<string> {
    this.labels ??= this.call("gmail.users.labels.list", true, () =>
      this.gmail.users.labels.list({ userId: "me" }),
    ).then(
      ({ data }) =>
        new Map(
          (data.labels ?? []).flatMap((label) =>
            label.id && label.name ? [[label.name.toLowerCase(), label.id] as const] : [],
          ),
        ),
    );
    const known = (await this.labels).get(name.toLowerCase());
    if (known) return known;
    const { data } = await this.call("gmail.users.labels.create", false, () =>
      this.gmail.users.labels.create({
        userId: "me",
        requestBody: { name, labelListVisibility: "labelShow", messageListVisibility: "show" },
      }),
    );
    if (!data.id) throw new Error("Gmail created a label without an id");
    this.created.push(data.id);
    return data.id;
  }

  /**
   * Deletes the labels this restorer created that hold no message (a recovery that failed before it
   * filled its folder label leaves nothing behind). Returns how many were deleted.
   */
  async removeEmptyCreatedLabels(): Promise<number> {
    let removed = 0;
    for (const id of this.created) {
      const { data } = await this.call("gmail.users.labels.get", true, () =>
        this.gmail.users.labels.get({ userId: "me", id }),
      );
      if ((data.messagesTotal ?? 0) > 0) continue;
      await this.call("gmail.users.labels.delete", true, () =>
        this.gmail.users.labels.delete({ userId: "me", id }),
      );
      removed += 1;
    }
    return removed;
  }

  /**
   * The target's label ids for a backed-up message's labels (and the folder's label); `currentNames`: the
   * backed-up mailbox's label names now, by id (`mailLabelNames`).
   */
  async labelIds(
    labels: readonly MailLabel[],
    folder: string | null,
    currentNames: Readonly<Record<string, string>> = {},
  ): Promise<string[]> {
    const ids = new Set<string>();
    for (const label of labels) {
      if (DROPPED_SYSTEM_LABELS.has(label.id)) continue;
      const name = currentNames[label.id] ?? label.name;
      if (SYSTEM_LABEL.test(label.id)) ids.add(label.id);
      else if (name) ids.add(await this.labelId(name));
    }
    if (folder) ids.add(await this.labelId(folder));
    return [...ids];
  }

  /** The id of a message with this Message-ID in the target mailbox, if there is one. */
  async find(messageId: string): Promise<string | undefined> {
    const { data } = await this.call("gmail.users.messages.list", true, () =>
      this.gmail.users.messages.list({
        userId: "me",
        q: `rfc822msgid:${messageId}`,
        maxResults: 1,
        includeSpamTrash: true,
      }),
    );
    return data.messages?.[0]?.id ?? undefined;
  }

  /**
   * Imports the message; returns its new id. The bytes go as a media upload (`/upload/gmail/v1/…`,
   * `message/rfc822`): Gmail caps the JSON `raw` of a non-upload request well below its message size
   * limit, so a large message only imports this way (and the bytes travel without base64's third more).
   */
  async import(raw: Buffer, labelIds: string[]): Promise<string> {
    const { data } = await this.call("gmail.users.messages.import", false, () =>
      this.gmail.users.messages.import({
        userId: "me",
        internalDateSource: "dateHeader",
        neverMarkSpam: true,
        processForCalendar: false,
        requestBody: { labelIds },
        media: { mimeType: "message/rfc822", body: Readable.from([raw]) },
      }),
    );
    if (!data.id) throw new Error("Gmail imported a message without an id");
    return data.id;
  }
}
