/**
 * Calendar v3 `acl.list`, `acl.insert` and `acl.delete`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/acl): a calendar's sharing rules,
 * for its owners only (others: 403). `acl.list` pages (`maxResults` ≤ 250, default 100) and takes a
 * `syncToken` (deleted rules, role "none", always included; `showDeleted=false` refused with it).
 * `acl.insert` takes `sendNotifications` (no mail is modelled) and changes the role of an existing rule for
 * the same scope. Every ACL change invalidates the calendar's events sync tokens ("changes in related
 * ACLs", Synchronize resources efficiently).
 */
import { boolParam } from "../http";
import { ACL_READ, ACL_WRITE, etag, maxResultsParam, page, type CalendarRoutes } from "./common";
import { invalidValue, notWithSyncToken, required } from "./errors";
import { ROLES, type AclScope, type Role, type StoredAclRule } from "./store-model";

export function ruleJson(rule: StoredAclRule): Record<string, unknown> {
  return {
    kind: "calendar#aclRule",
    etag: etag(rule.seq),
    id: rule.id,
    scope: { type: rule.scope.type, ...(rule.scope.value !== undefined ? { value: rule.scope.value } : {}) },
    role: rule.deleted ? "none" : rule.role,
  };
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function ruleInput(body: Record<string, unknown>): { scope: AclScope; role: Role } {
  const role = body.role;
  if (role === undefined) throw required("Missing role.");
  if (typeof role !== "string" || !ROLES.includes(role as Role))
    throw invalidValue(`Invalid role: ${String(role)}`);
  const scope = body.scope as Record<string, unknown> | undefined;
  if (!scope || typeof scope !== "object") throw required("Missing scope.");
  const type = scope.type;
  if (type !== "default" && type !== "user" && type !== "group" && type !== "domain") {
    throw invalidValue(`Invalid scope type: ${String(type)}`);
  }
  if (type === "default") {
    if (scope.value !== undefined) throw invalidValue("The default scope takes no value.");
    return { scope: { type }, role: role as Role };
  }
  const value = scope.value;
  if (typeof value !== "string" || value === "") throw required("Missing scope value.");
  if (type === "domain" ? !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(value) : !EMAIL.test(value)) {
    throw invalidValue(`Invalid scope value: ${value}`);
  }
  if (role === "none") throw invalidValue("Invalid role: none");
  return { scope: { type, value: value.toLowerCase() }, role: role as Role };
}

export function registerAclRoutes({ store, route, access }: CalendarRoutes): void {
  route("GET", "/calendars/:calendarId/acl", "calendar.acl.list", ACL_READ, (context, user) => {
    const { calendar } = access(context, user, "owner");
    const { query } = context;
    const syncToken = query.get("syncToken");
    const maxResults = maxResultsParam(context, 100, 250);
    let since: number | undefined;
    if (syncToken) {
      if (query.get("showDeleted") === "false") throw notWithSyncToken("showDeleted");
      since = store.acceptToken("acl", calendar.id, syncToken, calendar.aclSyncFloor);
    }
    const showDeleted = since !== undefined || boolParam(query, "showDeleted");
    const startSeq = store.currentSeq();
    const items = [...calendar.acl.values()]
      .filter((rule) => (since === undefined || rule.seq > since) && (showDeleted || !rule.deleted))
      .map((rule) => ({ key: rule.id, item: ruleJson(rule) }));
    const result = page(context, items, maxResults, startSeq, (seq) =>
      store.issueToken("acl", calendar.id, seq),
    );
    return { kind: "calendar#acl", etag: etag(startSeq), ...result };
  });

  route("POST", "/calendars/:calendarId/acl", "calendar.acl.insert", ACL_WRITE, async (context, user) => {
    const { calendar } = access(context, user, "owner");
    boolParam(context.query, "sendNotifications", true);
    const { scope, role } = ruleInput(await context.json());
    return ruleJson(store.putRule(calendar, scope, role));
  });

  route("DELETE", "/calendars/:calendarId/acl/:ruleId", "calendar.acl.delete", ACL_WRITE, (context, user) => {
    const { calendar } = access(context, user, "owner");
    store.deleteRule(calendar, context.params.ruleId ?? "");
    return undefined;
  });
}
