/**
 * Gmail v1 reading messages: `messages.list` (labels, `q`, paging), `messages.get` in its four formats
 * (`raw` written directly when it can be) and `messages.attachments.get`.
 *
 * Old Hangouts/Talk chats (messages with the system label `CHAT`) have no RFC 822 form at Google:
 * `format=raw` answers them without `raw` (id, threadId, labelIds, snippet, sizeEstimate, historyId and
 * internalDate only), while `full` and `metadata` give their payload as for any message. Google's
 * [Format](https://developers.google.com/workspace/gmail/api/reference/rest/v1/Format) page does not say
 * so; Gmail answers the official clients this way (GAM-team/got-your-back#84 reports it too).
 */
import {
  RESPONDED,
  badRequest,
  boolParam,
  forbidden,
  intParam,
  invalidArgument,
  type RequestContext,
} from "../http";
import { decodedBody, findPart, isAttachment, metadataPayloadJson, payloadJson, type MimePart } from "./mime";
import { type GmailStore } from "./store";
import { type StoredMessage } from "./store-model";
import {
  ATTACHMENT_PREFIX,
  BASE,
  READ,
  READ_CONTENT,
  decodeToken,
  encodeToken,
  isListCursor,
  listParam,
  metadataOnly,
  withLabels,
  type GmailRoutes,
} from "./common";

function attachmentIdOf(message: StoredMessage, part: MimePart): string {
  return ATTACHMENT_PREFIX + Buffer.from(`${message.id}:${part.partId}`).toString("base64url");
}

type Format = "minimal" | "full" | "raw" | "metadata";

/** Whether Gmail has the message's RFC 822 form: not for an old Hangouts/Talk chat (label `CHAT`). */
export function hasRawForm(message: StoredMessage): boolean {
  return !message.labelIds.has("CHAT");
}

/** A message as messages.get answers it, in Gmail's field order. */
export function messageJson(
  store: GmailStore,
  message: StoredMessage,
  format: Format,
  metadataHeaders: string[] = [],
): Record<string, unknown> {
  const json: Record<string, unknown> = withLabels(message);
  json.snippet = message.snippet;
  if (format === "full") json.payload = payloadJson(message.mime, (part) => attachmentIdOf(message, part));
  if (format === "metadata") json.payload = metadataPayloadJson(message.mime, metadataHeaders);
  json.sizeEstimate = message.raw.length;
  if (format === "raw" && hasRawForm(message)) json.raw = store.rawBase64url(message);
  json.historyId = String(message.historyId);
  json.internalDate = String(message.internalDate);
  return json;
}

/**
 * `format=raw` written directly: the same JSON as `messageJson`, without running JSON.stringify over the
 * large base64url string (which needs no escaping). Only used when no `fields` selection and no fault
 * applies, so partial responses and truncation faults keep going through the dispatcher.
 */
function sendRaw(context: RequestContext, store: GmailStore, message: StoredMessage): typeof RESPONDED {
  const json = messageJson(store, message, "minimal");
  const raw = store.rawBase64url(message);
  const before = JSON.stringify({ ...json, historyId: undefined, internalDate: undefined });
  const prefix = `${before.slice(0, -1)},"raw":"`;
  const suffix = `","historyId":${JSON.stringify(json.historyId)},"internalDate":${JSON.stringify(json.internalDate)}}`;
  const length = Buffer.byteLength(prefix) + raw.length + Buffer.byteLength(suffix);
  const { response } = context;
  response.writeHead(200, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": String(length),
  });
  response.cork();
  response.write(prefix);
  response.write(raw, "latin1");
  response.end(suffix);
  response.uncork();
  return RESPONDED;
}

export function registerMessageReadRoutes({ emulator, store, route }: GmailRoutes): void {
  route("GET", `${BASE}/messages`, "gmail.users.messages.list", READ, (context, user, principal) => {
    const q = context.query.get("q") ?? "";
    if (q.trim() && metadataOnly(principal)) throw forbidden("Metadata scope does not support 'q' parameter");
    const maxResults = intParam(context.query, "maxResults", { default: 100, min: 1, max: 500 });
    const all = store.listMessages(user.id, {
      labelIds: listParam(context, "labelIds"),
      q,
      includeSpamTrash: boolParam(context.query, "includeSpamTrash"),
    });
    const token = context.query.get("pageToken");
    let start = 0;
    if (token) {
      const [date, id] = decodeToken(token, isListCursor);
      start = all.findIndex(
        (message) => message.internalDate < date || (message.internalDate === date && message.id < id),
      );
      if (start < 0) start = all.length;
    }
    const page = all.slice(start, start + maxResults);
    const last = page[page.length - 1];
    const more = start + maxResults < all.length && last;
    return {
      ...(page.length > 0
        ? { messages: page.map((message) => ({ id: message.id, threadId: message.threadId })) }
        : {}),
      ...(more ? { nextPageToken: encodeToken([last.internalDate, last.id]) } : {}),
      resultSizeEstimate: all.length,
    };
  });

  route("GET", `${BASE}/messages/:id`, "gmail.users.messages.get", READ, (context, user, principal) => {
    const format = (context.query.get("format") ?? "full").toLowerCase();
    if (format !== "minimal" && format !== "full" && format !== "raw" && format !== "metadata") {
      throw invalidArgument(
        `Invalid value at 'format' (type.googleapis.com/google.apps.gmail.v1.Format), "${format}"`,
      );
    }
    if ((format === "full" || format === "raw") && metadataOnly(principal)) {
      throw forbidden(`Metadata scope doesn't allow format ${format.toUpperCase()}`);
    }
    const message = store.message(user.id, context.params.id ?? "");
    const direct = !context.query.has("fields") && emulator.faults.list().length === 0;
    if (format === "raw" && hasRawForm(message) && direct) {
      return sendRaw(context, store, message);
    }
    return messageJson(store, message, format, listParam(context, "metadataHeaders"));
  });

  route(
    "GET",
    `${BASE}/messages/:messageId/attachments/:id`,
    "gmail.users.messages.attachments.get",
    READ_CONTENT,
    (context, user) => {
      const message = store.message(user.id, context.params.messageId ?? "");
      const attachmentId = context.params.id ?? "";
      const decoded = attachmentId.startsWith(ATTACHMENT_PREFIX)
        ? Buffer.from(attachmentId.slice(ATTACHMENT_PREFIX.length), "base64url").toString("utf8")
        : "";
      const separator = decoded.lastIndexOf(":");
      const part =
        separator > 0 && decoded.slice(0, separator) === message.id
          ? findPart(message.mime, decoded.slice(separator + 1))
          : undefined;
      if (!part || !isAttachment(part)) throw badRequest("Invalid attachment token", "invalidArgument");
      const data = decodedBody(part);
      return { attachmentId, size: data.length, data: data.toString("base64url") };
    },
  );
}
