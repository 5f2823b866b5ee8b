/**
 * Gmail v1: profile, labels, messages (list, get, attachments, import, insert, modify, trash, delete) and
 * history, with Gmail's paths, scopes, JSON shapes and errors; plus the emulator-only admin state changes
 * for mailboxes (add, delete or relabel a message, expire history, set the history retention window).
 */
import { ADMIN_PREFIX, pathUser } from "../admin";
import { SCOPES } from "../auth";
import type { DirectoryUser } from "../directory/store";
import type { WorkspaceEmulator } from "../emulator";
import type { Principal } from "../principal";
import {
  GoogleApiError,
  RESPONDED,
  badRequest,
  boolParam,
  forbidden,
  intParam,
  invalidArgument,
  type Handler,
  type RequestContext,
} from "../http";
import { corrupted, type Upload } from "../uploads";
import { decodedBody, findPart, isAttachment, metadataPayloadJson, payloadJson, type MimePart } from "./mime";
import {
  HISTORY_KINDS,
  type GmailLabel,
  type GmailStore,
  type HistoryKind,
  type HistoryRecord,
  type StoredMessage,
} from "./store";

const GMAIL_COMPOSE = "https://www.googleapis.com/auth/gmail.compose";
const READ = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailReadonly, SCOPES.gmailMetadata];
const READ_CONTENT = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailReadonly];
const PROFILE = [...READ, GMAIL_COMPOSE];
const LABELS_READ = [...READ, SCOPES.gmailLabels];
const LABELS_WRITE = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailLabels];
const INSERT = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailInsert];
const MODIFY = [SCOPES.mail, SCOPES.gmailModify];
const DELETE = [SCOPES.mail];

/** Gmail's limit for one message (import, insert, upload): 150 MB (the discovery document's 157286400). */
export const MAX_MESSAGE_BYTES = 150 * 1024 * 1024;
/**
 * The largest body a Gmail request that is not an upload may carry (JSON `raw` included). Google does not
 * document it; Gmail has answered 400 "Request payload size exceeds the limit: 1048576 bytes." above it.
 * Larger messages go through the `/upload` URI.
 */
export const MAX_JSON_PAYLOAD_BYTES = 1024 * 1024;
/** An upload body may carry the message base64-encoded in a multipart part: a third larger, plus headers. */
const MAX_UPLOAD_BODY_BYTES = Math.ceil((MAX_MESSAGE_BYTES * 4) / 3) + 1024 * 1024;
const BASE = "/gmail/v1/users/:userId";
const ATTACHMENT_PREFIX = "ANGjdJ";

/**
 * The mailbox owner `userId` names: `me`, or the impersonated user's address or id; anyone else is 403. A
 * user without Gmail (Drive-only licence, Gmail off for their org unit) is 400 "Mail service not enabled".
 */
function mailboxUser(context: RequestContext, principal: Principal): DirectoryUser {
  const user = principal.user;
  if (!user) {
    throw new GoogleApiError(400, "Precondition check failed.", "failedPrecondition", {
      status: "FAILED_PRECONDITION",
    });
  }
  const key = (context.params.userId ?? "").toLowerCase();
  if (key !== "me" && key !== user.primaryEmail && key !== user.id && !user.aliases.includes(key)) {
    throw forbidden(`Delegation denied for ${user.primaryEmail}`);
  }
  if (!user.gmailEnabled) throw mailServiceNotEnabled();
  return user;
}

export function mailServiceNotEnabled(): GoogleApiError {
  return new GoogleApiError(400, "Mail service not enabled", "failedPrecondition", {
    status: "FAILED_PRECONDITION",
  });
}

function payloadTooLarge(): GoogleApiError {
  return badRequest(`Request payload size exceeds the limit: ${MAX_JSON_PAYLOAD_BYTES} bytes.`);
}

/** A token with gmail.metadata and no scope that reads content. */
function metadataOnly(principal: Principal): boolean {
  const scopes = principal.token.scopes;
  return scopes.includes(SCOPES.gmailMetadata) && !READ_CONTENT.some((scope) => scopes.includes(scope));
}

/** A repeated query parameter (`a=1&a=2`, or `a=1,2`). */
function listParam(context: RequestContext, name: string): string[] {
  return context.query
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
}

function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw invalidArgument(`Invalid value for ${name}`);
  }
  return value as string[];
}

function withLabels(message: StoredMessage): Record<string, unknown> {
  return {
    id: message.id,
    threadId: message.threadId,
    ...(message.labelIds.size > 0 ? { labelIds: [...message.labelIds] } : {}),
  };
}

function attachmentIdOf(message: StoredMessage, part: MimePart): string {
  return ATTACHMENT_PREFIX + Buffer.from(`${message.id}:${part.partId}`).toString("base64url");
}

type Format = "minimal" | "full" | "raw" | "metadata";

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
  if (format === "raw") json.raw = store.rawBase64url(message);
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

function labelJson(label: GmailLabel): Record<string, unknown> {
  return { ...label };
}

function historyJson(record: HistoryRecord): Record<string, unknown> {
  const message = {
    ...record.message,
    ...(record.labelIds.length > 0 ? { labelIds: record.labelIds } : {}),
  };
  const json: Record<string, unknown> = { id: String(record.id), messages: [record.message] };
  switch (record.kind) {
    case "messageAdded":
      json.messagesAdded = [{ message }];
      break;
    case "messageDeleted":
      json.messagesDeleted = [{ message }];
      break;
    case "labelAdded":
      json.labelsAdded = [{ message, labelIds: record.changed ?? [] }];
      break;
    case "labelRemoved":
      json.labelsRemoved = [{ message, labelIds: record.changed ?? [] }];
      break;
  }
  return json;
}

function encodeToken(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function decodeToken<T>(token: string, check: (value: unknown) => value is T): T {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (check(value)) return value;
  } catch {
    // answered below
  }
  throw badRequest("Invalid pageToken", "invalidArgument");
}

const isListCursor = (value: unknown): value is [number, string] =>
  Array.isArray(value) && typeof value[0] === "number" && typeof value[1] === "string";
const isHistoryCursor = (value: unknown): value is number => typeof value === "number";

function labelInput(body: Record<string, unknown>): Partial<Omit<GmailLabel, "id" | "type">> {
  const input: Partial<Omit<GmailLabel, "id" | "type">> = {};
  if (body.name !== undefined) {
    if (typeof body.name !== "string") throw invalidArgument("Invalid label name");
    input.name = body.name;
  }
  if (body.messageListVisibility !== undefined) {
    if (body.messageListVisibility !== "show" && body.messageListVisibility !== "hide") {
      throw invalidArgument(`Invalid value for messageListVisibility: ${String(body.messageListVisibility)}`);
    }
    input.messageListVisibility = body.messageListVisibility;
  }
  if (body.labelListVisibility !== undefined) {
    const value = body.labelListVisibility;
    if (value !== "labelShow" && value !== "labelShowIfUnread" && value !== "labelHide") {
      throw invalidArgument(`Invalid value for labelListVisibility: ${String(value)}`);
    }
    input.labelListVisibility = value;
  }
  if (body.color !== undefined && body.color !== null) {
    if (typeof body.color !== "object") throw invalidArgument("Invalid color");
    const color = body.color as Record<string, unknown>;
    input.color = {
      ...(typeof color.textColor === "string" ? { textColor: color.textColor } : {}),
      ...(typeof color.backgroundColor === "string" ? { backgroundColor: color.backgroundColor } : {}),
    };
  }
  return input;
}

function messageTooLarge(): GoogleApiError {
  return new GoogleApiError(
    413,
    `Media larger than the maximum allowed size of ${MAX_MESSAGE_BYTES} bytes.`,
    "uploadTooLarge",
  );
}

function decodeRaw(raw: string): Buffer {
  if (!/^[A-Za-z0-9+/_=\s-]*$/.test(raw)) throw invalidArgument("Invalid raw message");
  return Buffer.from(raw, "base64");
}

export function registerGmailApi(emulator: WorkspaceEmulator): void {
  const store = emulator.gmail;
  const route = (
    method: string,
    path: string,
    id: string,
    scopes: readonly string[],
    handler: (context: RequestContext, user: DirectoryUser, principal: Principal) => unknown,
  ): void => {
    const upload = path.startsWith("/upload/");
    const wrapped: Handler<Principal> = (context, principal) => {
      context.bodyLimit = upload
        ? { maxBytes: MAX_UPLOAD_BODY_BYTES, tooLarge: messageTooLarge }
        : { maxBytes: MAX_JSON_PAYLOAD_BYTES, tooLarge: payloadTooLarge };
      return handler(context, mailboxUser(context, principal), principal);
    };
    emulator.router.add({ method, path, id, scopes, handler: wrapped });
  };

  // ------------------------------------------------------------ profile

  route("GET", `${BASE}/profile`, "gmail.users.getProfile", PROFILE, (_context, user) => {
    const profile = store.profile(user.id);
    return {
      emailAddress: user.primaryEmail,
      messagesTotal: profile.messagesTotal,
      threadsTotal: profile.threadsTotal,
      historyId: String(profile.historyId),
    };
  });

  // ------------------------------------------------------------ labels

  route("GET", `${BASE}/labels`, "gmail.users.labels.list", LABELS_READ, (_context, user) => ({
    labels: store.labels(user.id).map(labelJson),
  }));
  route("GET", `${BASE}/labels/:id`, "gmail.users.labels.get", LABELS_READ, (context, user) => {
    const label = store.label(user.id, context.params.id ?? "");
    return { ...labelJson(label), ...store.labelCounts(user.id, label.id) };
  });
  route("POST", `${BASE}/labels`, "gmail.users.labels.create", LABELS_WRITE, async (context, user) =>
    labelJson(store.addLabel(user.id, labelInput(await context.json()))),
  );
  route("PATCH", `${BASE}/labels/:id`, "gmail.users.labels.patch", LABELS_WRITE, async (context, user) =>
    labelJson(store.updateLabel(user.id, context.params.id ?? "", labelInput(await context.json()), false)),
  );
  route("PUT", `${BASE}/labels/:id`, "gmail.users.labels.update", LABELS_WRITE, async (context, user) =>
    labelJson(store.updateLabel(user.id, context.params.id ?? "", labelInput(await context.json()), true)),
  );
  route("DELETE", `${BASE}/labels/:id`, "gmail.users.labels.delete", LABELS_WRITE, (context, user) => {
    store.deleteLabel(user.id, context.params.id ?? "");
    return undefined;
  });

  // ------------------------------------------------------------ messages

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
    if (format === "raw" && !context.query.has("fields") && emulator.faults.list().length === 0) {
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

  /** messages.import and messages.insert: JSON `raw`, or an upload (media, multipart, resumable). */
  const addMessage = (
    kind: "import" | "insert",
    context: RequestContext,
    user: DirectoryUser,
    metadata: Record<string, unknown>,
    raw: Buffer | undefined,
  ): unknown => {
    if (!raw || raw.length === 0) {
      throw invalidArgument(
        "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
      );
    }
    if (raw.length > MAX_MESSAGE_BYTES) throw messageTooLarge();
    // Google's defaults: import takes the Date header, insert the time it arrives.
    const source =
      context.query.get("internalDateSource") ?? (kind === "import" ? "dateHeader" : "receivedTime");
    if (source !== "dateHeader" && source !== "receivedTime") {
      throw invalidArgument(
        `Invalid value at 'internal_date_source' (type.googleapis.com/google.apps.gmail.v1.InternalDateSource), "${source}"`,
      );
    }
    boolParam(context.query, "neverMarkSpam");
    boolParam(context.query, "processForCalendar");
    const labelIds = stringList(metadata.labelIds, "labelIds");
    const threadId = typeof metadata.threadId === "string" ? metadata.threadId : undefined;
    if (boolParam(context.query, "deleted")) {
      // Only Vault sees messages imported as deleted: nothing appears in the mailbox.
      return {
        id: `${Date.now().toString(16)}00000`,
        threadId: threadId ?? `${Date.now().toString(16)}00000`,
      };
    }
    const { message } = store.addMessage(user.id, raw, {
      labelIds,
      threadId,
      internalDate: source === "receivedTime" ? Date.now() : undefined,
    });
    return withLabels(message);
  };

  for (const kind of ["import", "insert"] as const) {
    const id = `gmail.users.messages.${kind}`;
    const path = kind === "import" ? "/messages/import" : "/messages";
    route("POST", `${BASE}${path}`, id, INSERT, async (context, user) => {
      const body = await context.json();
      const sent = typeof body.raw === "string" ? decodeRaw(body.raw) : undefined;
      const raw = sent
        ? corrupted(
            { metadata: {}, media: { contentType: "message/rfc822", data: sent } },
            context.corruptUpload,
          ).media?.data
        : undefined;
      return addMessage(kind, context, user, body, raw);
    });
    route("POST", `/upload${BASE}${path}`, id, INSERT, (context, user) =>
      emulator.uploads.receive(
        context,
        (upload: Upload) => {
          const type = (upload.media?.contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
          if (upload.media && !type.startsWith("message/")) {
            throw new GoogleApiError(
              400,
              `Media type '${type}' is not supported. Valid media types: [message/*]`,
              "badContent",
            );
          }
          const raw =
            upload.media?.data ??
            (typeof upload.metadata.raw === "string" ? decodeRaw(upload.metadata.raw) : undefined);
          return addMessage(kind, context, user, upload.metadata, raw);
        },
        { maxBytes: MAX_MESSAGE_BYTES },
      ),
    );
  }

  const modifyBody = async (context: RequestContext): Promise<{ add: string[]; remove: string[] }> => {
    const body = await context.json();
    return {
      add: stringList(body.addLabelIds, "addLabelIds"),
      remove: stringList(body.removeLabelIds, "removeLabelIds"),
    };
  };
  route(
    "POST",
    `${BASE}/messages/:id/modify`,
    "gmail.users.messages.modify",
    MODIFY,
    async (context, user) => {
      const { add, remove } = await modifyBody(context);
      return withLabels(store.modifyMessage(user.id, context.params.id ?? "", add, remove));
    },
  );
  route("POST", `${BASE}/messages/:id/trash`, "gmail.users.messages.trash", MODIFY, (context, user) =>
    withLabels(store.modifyMessage(user.id, context.params.id ?? "", ["TRASH"], [])),
  );
  route("POST", `${BASE}/messages/:id/untrash`, "gmail.users.messages.untrash", MODIFY, (context, user) =>
    withLabels(store.modifyMessage(user.id, context.params.id ?? "", [], ["TRASH"])),
  );
  route("DELETE", `${BASE}/messages/:id`, "gmail.users.messages.delete", DELETE, (context, user) => {
    store.deleteMessage(user.id, context.params.id ?? "");
    return undefined;
  });
  const batchIds = (body: Record<string, unknown>): string[] => {
    const ids = stringList(body.ids, "ids");
    if (ids.length > 1000) throw invalidArgument("Too many ids: at most 1000 are allowed");
    return ids;
  };
  route(
    "POST",
    `${BASE}/messages/batchModify`,
    "gmail.users.messages.batchModify",
    MODIFY,
    async (context, user) => {
      const body = await context.json();
      const add = stringList(body.addLabelIds, "addLabelIds");
      const remove = stringList(body.removeLabelIds, "removeLabelIds");
      for (const id of batchIds(body)) {
        try {
          store.modifyMessage(user.id, id, add, remove);
        } catch (error) {
          // Gmail skips ids that do not exist.
          if (!(error instanceof GoogleApiError && error.code === 404)) throw error;
        }
      }
      return undefined;
    },
  );
  route(
    "POST",
    `${BASE}/messages/batchDelete`,
    "gmail.users.messages.batchDelete",
    DELETE,
    async (context, user) => {
      for (const id of batchIds(await context.json())) {
        try {
          store.deleteMessage(user.id, id);
        } catch (error) {
          if (!(error instanceof GoogleApiError && error.code === 404)) throw error;
        }
      }
      return undefined;
    },
  );

  // ------------------------------------------------------------ history

  route("GET", `${BASE}/history`, "gmail.users.history.list", READ, (context, user) => {
    const startText = context.query.get("startHistoryId");
    if (!startText) {
      throw new GoogleApiError(400, "Required parameter: startHistoryId", "required", {
        extra: { location: "startHistoryId", locationType: "parameter" },
      });
    }
    if (!/^\d+$/.test(startText)) throw invalidArgument(`Invalid value '${startText}' for startHistoryId`);
    const start = Number(startText);
    const maxResults = intParam(context.query, "maxResults", { default: 100, min: 1, max: 500 });
    const types = listParam(context, "historyTypes");
    for (const type of types) {
      if (!HISTORY_KINDS.includes(type as HistoryKind)) {
        throw invalidArgument(
          `Invalid value at 'history_types' (type.googleapis.com/google.apps.gmail.v1.ListHistoryRequest.HistoryType), "${type}"`,
        );
      }
    }
    const labelId = context.query.get("labelId");
    const { records, historyId } = store.history(user.id, start);
    const token = context.query.get("pageToken");
    const after = token ? decodeToken(token, isHistoryCursor) : start;
    const matching = records.filter(
      (record) =>
        record.id > after &&
        (types.length === 0 || types.includes(record.kind)) &&
        (!labelId || record.labelIds.includes(labelId) || !!record.changed?.includes(labelId)),
    );
    const page = matching.slice(0, maxResults);
    const last = page[page.length - 1];
    return {
      ...(page.length > 0 ? { history: page.map(historyJson) } : {}),
      ...(matching.length > maxResults && last ? { nextPageToken: encodeToken(last.id) } : {}),
      historyId: String(historyId),
    };
  });

  registerGmailAdmin(emulator);
}

/** Emulator-only state changes for tests, under `/emulator/v1/users/:user/gmail/...` (no token). */
function registerGmailAdmin(emulator: WorkspaceEmulator): void {
  const store = emulator.gmail;
  const add = (method: string, path: string, handler: (context: RequestContext) => unknown): void =>
    emulator.router.add({ method, path: `${ADMIN_PREFIX}${path}`, id: `emulator/gmail${path}`, handler });
  const retention = (body: Record<string, unknown>): number | undefined => {
    const value = body.retentionSeconds;
    if (value === null || value === undefined) return undefined;
    if (typeof value !== "number" || !(value >= 0))
      throw badRequest("retentionSeconds must be a number >= 0");
    return value * 1000;
  };

  // {raw: base64(url) or the message text, encoding?: "base64" | "plain", labelIds?, internalDate? (ms)}
  add("POST", "/users/:user/gmail/messages", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    if (typeof body.raw !== "string" || body.raw === "") throw badRequest("raw is required");
    const plain =
      body.encoding === "plain" || (body.encoding !== "base64" && !/^[A-Za-z0-9+/_=\r\n-]+$/.test(body.raw));
    const raw = plain ? Buffer.from(body.raw, "utf8") : Buffer.from(body.raw, "base64");
    const internalDate = typeof body.internalDate === "number" ? body.internalDate : undefined;
    const { message } = store.addMessage(user.id, raw, {
      labelIds: body.labelIds === undefined ? ["INBOX", "UNREAD"] : stringList(body.labelIds, "labelIds"),
      internalDate,
    });
    return { ...withLabels(message), historyId: String(message.historyId) };
  });
  add("DELETE", "/users/:user/gmail/messages/:id", (context) => {
    store.deleteMessage(pathUser(emulator, context).id, context.params.id ?? "");
    return undefined;
  });
  // {addLabelIds?, removeLabelIds?}
  add("POST", "/users/:user/gmail/messages/:id:modify", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    const message = store.modifyMessage(
      user.id,
      context.params.id ?? "",
      stringList(body.addLabelIds, "addLabelIds"),
      stringList(body.removeLabelIds, "removeLabelIds"),
    );
    return { ...withLabels(message), historyId: String(message.historyId) };
  });
  add("POST", "/users/:user/gmail/labels", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    if (typeof body.name !== "string") throw badRequest("name is required");
    return store.label(user.id, store.createLabel(user.id, body.name).id);
  });
  // {name?, messageListVisibility?, labelListVisibility?, color?}: a user label renamed or changed, as
  // labels.patch does (the user renaming it in Gmail).
  add("PATCH", "/users/:user/gmail/labels/:id", async (context) => {
    const user = pathUser(emulator, context);
    return store.updateLabel(user.id, context.params.id ?? "", labelInput(await context.json()), false);
  });
  add("POST", "/users/:user/gmail/history:expire", (context) => ({
    historyId: String(store.expireHistory(pathUser(emulator, context).id)),
  }));
  // {retentionSeconds: number | null} for one mailbox (null: back to the default).
  add("PATCH", "/users/:user/gmail/history", async (context) => {
    const user = pathUser(emulator, context);
    const ms = retention(await context.json());
    store.setHistoryRetention(user.id, ms);
    return { retentionSeconds: (ms ?? store.defaultRetentionMs) / 1000 };
  });
  // {retentionSeconds} for every mailbox without its own.
  add("PATCH", "/gmail/history", async (context) => {
    const ms = retention(await context.json());
    if (ms === undefined) throw badRequest("retentionSeconds is required");
    store.defaultRetentionMs = ms;
    return { retentionSeconds: ms / 1000 };
  });
}
