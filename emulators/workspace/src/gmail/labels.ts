/**
 * Gmail v1 labels: `labels.list`, `labels.get` (with counts), `labels.create`, `labels.patch`,
 * `labels.update` and `labels.delete`.
 */
import { invalidArgument } from "../http";
import { type GmailLabel } from "./store-model";
import { BASE, LABELS_READ, LABELS_WRITE, type GmailRoutes } from "./common";

export function labelJson(label: GmailLabel): Record<string, unknown> {
  return { ...label };
}

export function labelInput(body: Record<string, unknown>): Partial<Omit<GmailLabel, "id" | "type">> {
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

export function registerLabelRoutes({ store, route }: GmailRoutes): void {
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
}
