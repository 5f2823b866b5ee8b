/**
 * Gmail v1 writing messages: `messages.import` and `messages.insert` (JSON `raw` or an upload),
 * `messages.modify`, `trash`, `untrash`, `delete`, `batchModify` and `batchDelete`.
 */
import type { DirectoryUser } from "../directory/store";
import { GoogleApiError, boolParam, invalidArgument, type RequestContext } from "../http";
import { corrupted, type Upload } from "../uploads";
import { type GmailStore } from "./store";
import {
  BASE,
  DELETE,
  INSERT,
  MAX_MESSAGE_BYTES,
  MODIFY,
  decodeRaw,
  messageTooLarge,
  stringList,
  withLabels,
  type GmailRoutes,
} from "./common";

/** messages.import and messages.insert: JSON `raw`, or an upload (media, multipart, resumable). */
function addMessage(
  store: GmailStore,
  kind: "import" | "insert",
  context: RequestContext,
  user: DirectoryUser,
  metadata: Record<string, unknown>,
  raw: Buffer | undefined,
): unknown {
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
}

export function registerMessageWriteRoutes({ emulator, store, route }: GmailRoutes): void {
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
      return addMessage(store, kind, context, user, body, raw);
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
          return addMessage(store, kind, context, user, upload.metadata, raw);
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
}
