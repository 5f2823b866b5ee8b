/**
 * The Gmail part of the emulator-only admin API: state changes for tests under
 * `/emulator/v1/users/:user/gmail/...` (no token): add (a chat too), delete or relabel a message, create
 * or change a label, expire history, set the history retention window.
 */
import { ADMIN_PREFIX, pathUser } from "../admin";
import type { WorkspaceEmulator } from "../emulator";
import { badRequest, type RequestContext } from "../http";
import { stringList, withLabels } from "./common";
import { labelInput } from "./labels";
/** Emulator-only state changes for tests, under `/emulator/v1/users/:user/gmail/...` (no token). */
export function registerGmailAdmin(emulator: WorkspaceEmulator): void {
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

  // {raw: base64(url) or the message text, encoding?: "base64" | "plain", labelIds?, internalDate? (ms),
  // chat?}. `chat: true` makes it an old Hangouts/Talk chat: the system label CHAT is added (its other
  // labels default to none), and Gmail then has no raw form of it (see messages.ts).
  add("POST", "/users/:user/gmail/messages", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    if (typeof body.raw !== "string" || body.raw === "") throw badRequest("raw is required");
    if (body.chat !== undefined && typeof body.chat !== "boolean") throw badRequest("chat must be a boolean");
    const plain =
      body.encoding === "plain" || (body.encoding !== "base64" && !/^[A-Za-z0-9+/_=\r\n-]+$/.test(body.raw));
    const raw = plain ? Buffer.from(body.raw, "utf8") : Buffer.from(body.raw, "base64");
    const internalDate = typeof body.internalDate === "number" ? body.internalDate : undefined;
    const chat = body.chat === true;
    const labelIds =
      body.labelIds === undefined ? (chat ? [] : ["INBOX", "UNREAD"]) : stringList(body.labelIds, "labelIds");
    const { message } = store.addMessage(user.id, raw, {
      labelIds: chat ? [...labelIds, "CHAT"] : labelIds,
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
