/**
 * Gmail v1 `history.list`: the mailbox's changes since a history id, by kind and label, paged.
 */
import { GoogleApiError, intParam, invalidArgument } from "../http";
import { HISTORY_KINDS, type HistoryKind, type HistoryRecord } from "./store-model";
import { BASE, READ, decodeToken, encodeToken, isHistoryCursor, listParam, type GmailRoutes } from "./common";

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

export function registerHistoryRoutes({ store, route }: GmailRoutes): void {
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
}
