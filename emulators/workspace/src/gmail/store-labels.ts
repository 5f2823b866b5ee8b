/**
 * A mailbox's labels as Gmail keeps them: names (unique, case-insensitive, not reserved), new and changed
 * user labels, the ids a request may use, names as queries write them, and per-label counts.
 */
import { GoogleApiError, badRequest } from "../http";
import { type GmailLabel, type Mailbox, RESERVED_NAMES, SYSTEM_BY_ID, labelNotFound } from "./store-model";

export function checkLabelName(
  mailbox: Mailbox,
  raw: string | undefined,
  selfId: string | undefined,
): string {
  const name = (raw ?? "").trim();
  if (!name || name.length > 225 || RESERVED_NAMES.has(name.toLowerCase())) {
    throw badRequest("Invalid label name", "invalidArgument");
  }
  for (const label of mailbox.labels.values()) {
    if (label.id !== selfId && label.name.toLowerCase() === name.toLowerCase()) {
      throw new GoogleApiError(409, "Label name exists or conflicts", "aborted", { status: "ABORTED" });
    }
  }
  return name;
}

/** The label ids a request names, each once; 400 for one the mailbox does not have. */
export function checkLabels(mailbox: Mailbox, ids: string[]): string[] {
  for (const id of ids) {
    if (!SYSTEM_BY_ID.has(id) && !mailbox.labels.has(id)) {
      throw badRequest(`Invalid label: ${id}`, "invalidArgument");
    }
  }
  return [...new Set(ids)];
}

/** A label id from a name as a query writes it (case-insensitive; `-` stands for space and `/`). */
export function labelIdByName(mailbox: Mailbox, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const system = SYSTEM_BY_ID.get(name.toUpperCase());
  if (system) return system.id;
  for (const label of mailbox.labels.values()) {
    const lower = label.name.toLowerCase();
    if (lower === wanted || lower.replace(/[\s/]/g, "-") === wanted) return label.id;
  }
  return undefined;
}

export function labelCountsOf(
  mailbox: Mailbox,
  id: string,
): { messagesTotal: number; messagesUnread: number; threadsTotal: number; threadsUnread: number } {
  let messagesTotal = 0;
  let messagesUnread = 0;
  const threads = new Set<string>();
  const unreadThreads = new Set<string>();
  for (const message of mailbox.messages.values()) {
    if (!message.labelIds.has(id)) continue;
    messagesTotal += 1;
    threads.add(message.threadId);
    if (message.labelIds.has("UNREAD")) {
      messagesUnread += 1;
      unreadThreads.add(message.threadId);
    }
  }
  return { messagesTotal, messagesUnread, threadsTotal: threads.size, threadsUnread: unreadThreads.size };
}

/** labels.create: a new user label, 409 when the name is taken. */
export function addLabelTo(
  mailbox: Mailbox,
  input: Partial<Omit<GmailLabel, "id" | "type">> & { name?: string },
): GmailLabel {
  const name = checkLabelName(mailbox, input.name, undefined);
  const label: GmailLabel = {
    id: `Label_${mailbox.nextLabelNumber}`,
    name,
    type: "user",
    messageListVisibility: input.messageListVisibility ?? "show",
    labelListVisibility: input.labelListVisibility ?? "labelShow",
    ...(input.color ? { color: input.color } : {}),
  };
  mailbox.nextLabelNumber += 1;
  mailbox.labels.set(label.id, label);
  return label;
}

/** labels.patch (only given fields) and labels.update (everything given replaces). */
export function updateLabelOf(
  mailbox: Mailbox,
  id: string,
  input: Partial<Omit<GmailLabel, "id" | "type">>,
  replace: boolean,
): GmailLabel {
  if (SYSTEM_BY_ID.has(id)) throw badRequest("Invalid update request", "invalidArgument");
  const label = mailbox.labels.get(id);
  if (!label) throw labelNotFound();
  if (input.name !== undefined || replace) label.name = checkLabelName(mailbox, input.name, id);
  if (input.messageListVisibility !== undefined || replace) {
    label.messageListVisibility = input.messageListVisibility ?? "show";
  }
  if (input.labelListVisibility !== undefined || replace) {
    label.labelListVisibility = input.labelListVisibility ?? "labelShow";
  }
  if (input.color !== undefined) label.color = input.color;
  else if (replace) delete label.color;
  return label;
}
