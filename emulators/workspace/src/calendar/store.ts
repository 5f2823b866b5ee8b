/**
 * Google Calendar's state: calendars (every user's primary one, id = their address, made on first use, and
 * secondary ones, `…@group.calendar.google.com`), their access control rules and events, and each user's
 * calendar list. Every change takes the next change number; sync tokens carry the number they were issued
 * at, and are refused (410 fullSyncRequired) once expired, once the calendar's ACL changed since (for its
 * events), or after `expireSyncTokens` (the admin API), as "Synchronize resources efficiently"
 * (https://developers.google.com/workspace/calendar/api/guides/sync) describes.
 */
import { createHash, randomBytes } from "node:crypto";
import type { DirectoryUser } from "../directory/store";
import { badRequest } from "../http";
import { calendarNotFound, fullSyncRequired } from "./errors";
import {
  type CalendarSnapshot,
  DEFAULT_SYNC_TOKEN_LIFETIME_MS,
  DEFAULT_TIME_ZONE,
  type Role,
  type StoredAclRule,
  type StoredCalendar,
  type StoredEvent,
  type StoredListEntry,
  type UserCalendars,
  type AclScope,
  roleRank,
} from "./store-model";

export type SyncKind = "events" | "acl" | "calendarList";

interface TokenBody {
  k: SyncKind;
  c: string;
  s: number;
  t: number;
}

export class CalendarStore {
  private readonly calendars = new Map<string, StoredCalendar>();
  private readonly users = new Map<string, UserCalendars>();
  private seq = 1;
  /** The emulator's clock (sync tokens expire on it). */
  now: () => number = Date.now;
  tokenLifetimeMs = DEFAULT_SYNC_TOKEN_LIFETIME_MS;

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  currentSeq(): number {
    return this.seq;
  }

  /** A user's calendars, with their primary calendar (made on first use). */
  userCalendars(user: DirectoryUser): UserCalendars {
    let entry = this.users.get(user.id);
    if (!entry) {
      entry = { userId: user.id, email: user.primaryEmail, entries: new Map(), listSyncFloor: 0 };
      this.users.set(user.id, entry);
    }
    entry.email = user.primaryEmail;
    if (!this.calendars.has(user.primaryEmail)) {
      this.addCalendar(user, { summary: user.primaryEmail }, user.primaryEmail);
    }
    return entry;
  }

  /** Adds a calendar owned by `owner` (the primary one when `id` is their address) to their list. */
  addCalendar(
    owner: DirectoryUser,
    input: { summary: string; description?: string; location?: string; timeZone?: string },
    id = `${randomBytes(16).toString("hex").slice(0, 26)}@group.calendar.google.com`,
  ): StoredCalendar {
    const seq = this.nextSeq();
    const calendar: StoredCalendar = {
      id,
      summary: input.summary,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.location !== undefined ? { location: input.location } : {}),
      timeZone: input.timeZone ?? DEFAULT_TIME_ZONE,
      ownerId: owner.id,
      primary: id === owner.primaryEmail,
      created: new Date(this.now()).toISOString(),
      seq,
      deleted: false,
      acl: new Map(),
      events: new Map(),
      eventsSyncFloor: 0,
      aclSyncFloor: 0,
    };
    this.calendars.set(id, calendar);
    const rule: StoredAclRule = {
      id: `user:${owner.primaryEmail}`,
      scope: { type: "user", value: owner.primaryEmail },
      role: "owner",
      seq,
      deleted: false,
    };
    calendar.acl.set(rule.id, rule);
    this.subscribe(owner, id);
    return calendar;
  }

  /** Puts a calendar on a user's list (or changes its entry). */
  subscribe(
    user: DirectoryUser,
    calendarId: string,
    options: { hidden?: boolean; colorId?: string } = {},
  ): StoredListEntry {
    const list = this.userCalendars(user);
    const existing = list.entries.get(calendarId);
    const entry: StoredListEntry = {
      calendarId,
      hidden: options.hidden ?? (existing && !existing.deleted ? existing.hidden : false),
      selected: true,
      colorId: options.colorId ?? existing?.colorId ?? String((list.entries.size % 24) + 1),
      seq: this.nextSeq(),
      deleted: false,
    };
    list.entries.set(calendarId, entry);
    return entry;
  }

  /** Saves a user's settings of a calendar on their list (calendarList.insert, patch and update). */
  putListEntry(user: DirectoryUser, entry: Omit<StoredListEntry, "seq" | "deleted">): StoredListEntry {
    const saved: StoredListEntry = { ...structuredClone(entry), seq: this.nextSeq(), deleted: false };
    this.userCalendars(user).entries.set(entry.calendarId, saved);
    return saved;
  }

  /** A calendar that exists (not deleted). */
  calendar(id: string): StoredCalendar | undefined {
    const calendar = this.calendars.get(id.toLowerCase()) ?? this.calendars.get(id);
    return calendar && !calendar.deleted ? calendar : undefined;
  }

  /** The strongest role a user has on a calendar through its ACL (user, domain or default rules). */
  accessRole(calendar: StoredCalendar, user: DirectoryUser): Role {
    if (calendar.ownerId === user.id) return "owner";
    const domain = user.primaryEmail.split("@")[1] ?? "";
    let best: Role = "none";
    for (const rule of calendar.acl.values()) {
      if (rule.deleted) continue;
      const applies =
        rule.scope.type === "default" ||
        (rule.scope.type === "user" && rule.scope.value?.toLowerCase() === user.primaryEmail) ||
        (rule.scope.type === "domain" && rule.scope.value?.toLowerCase() === domain);
      if (applies && roleRank(rule.role) > roleRank(best)) best = rule.role;
    }
    return best;
  }

  deleteCalendar(calendar: StoredCalendar): void {
    calendar.deleted = true;
    calendar.seq = this.nextSeq();
    for (const list of this.users.values()) {
      const entry = list.entries.get(calendar.id);
      if (entry && !entry.deleted) {
        entry.deleted = true;
        entry.seq = this.nextSeq();
      }
    }
  }

  // ---------------------------------------------------------------- ACL

  /** Inserts a rule, or changes the role of the rule for that scope. Invalidates the events' sync tokens. */
  putRule(calendar: StoredCalendar, scope: AclScope, role: Role): StoredAclRule {
    const id = scope.type === "default" ? "default" : `${scope.type}:${scope.value ?? ""}`;
    const seq = this.nextSeq();
    const rule: StoredAclRule = { id, scope, role, seq, deleted: false };
    calendar.acl.set(id, rule);
    calendar.eventsSyncFloor = seq;
    this.touchEntries(calendar.id, scope);
    return rule;
  }

  /** A rule for a user changes their role: their list entry counts as changed (it may come or go). */
  private touchEntries(calendarId: string, scope: AclScope): void {
    for (const list of this.users.values()) {
      const entry = list.entries.get(calendarId);
      const applies =
        scope.type === "default" ||
        (scope.type === "user" && scope.value === list.email) ||
        (scope.type === "domain" && scope.value === list.email.split("@")[1]);
      if (entry && applies) entry.seq = this.nextSeq();
    }
  }

  deleteRule(calendar: StoredCalendar, ruleId: string): void {
    const rule = calendar.acl.get(ruleId);
    if (!rule || rule.deleted) throw calendarNotFound();
    if (rule.role === "owner" && rule.scope.value === this.ownerEmail(calendar)) {
      throw badRequest("Cannot remove the owner of a calendar.", "invalid");
    }
    rule.deleted = true;
    rule.seq = this.nextSeq();
    calendar.eventsSyncFloor = rule.seq;
    this.touchEntries(calendar.id, rule.scope);
  }

  private ownerEmail(calendar: StoredCalendar): string | undefined {
    for (const list of this.users.values()) if (list.userId === calendar.ownerId) return list.email;
    return undefined;
  }

  // ---------------------------------------------------------------- events

  putEvent(calendar: StoredCalendar, event: Omit<StoredEvent, "seq">): StoredEvent {
    const stored: StoredEvent = { ...event, seq: this.nextSeq() };
    calendar.events.set(stored.id, stored);
    return stored;
  }

  /** Deletes an event (a series with its changed and cancelled instances). */
  deleteEvent(calendar: StoredCalendar, event: StoredEvent): void {
    const updated = new Date(this.now()).toISOString();
    for (const other of calendar.events.values()) {
      if (other.id === event.id || (other.recurringEventId === event.id && !other.deleted)) {
        other.deleted = true;
        other.status = "cancelled";
        other.updated = updated;
        other.seq = this.nextSeq();
      }
    }
  }

  // ---------------------------------------------------------------- sync tokens

  issueToken(kind: SyncKind, key: string, seq: number): string {
    const body: TokenBody = { k: kind, c: key, s: seq, t: this.now() };
    const text = JSON.stringify(body);
    const mac = createHash("sha256").update(`calendar-sync:${text}`).digest("base64url").slice(0, 8);
    return Buffer.from(`${text}.${mac}`).toString("base64url");
  }

  /** The change number a sync token was issued at, or Google's 410 once it is no longer accepted. */
  acceptToken(kind: SyncKind, key: string, token: string, floor: number): number {
    let body: TokenBody | undefined;
    try {
      const text = Buffer.from(token, "base64url").toString("utf8");
      const dot = text.lastIndexOf(".");
      const json = text.slice(0, dot);
      const mac = createHash("sha256").update(`calendar-sync:${json}`).digest("base64url").slice(0, 8);
      if (dot > 0 && text.slice(dot + 1) === mac) body = JSON.parse(json) as TokenBody;
    } catch {
      body = undefined;
    }
    if (!body || body.k !== kind || body.c !== key) {
      throw badRequest("Invalid sync token value.", "invalid");
    }
    if (body.s < floor || this.now() - body.t > this.tokenLifetimeMs) throw fullSyncRequired();
    return body.s;
  }

  /** Every sync token a user holds (calendar list, and the ACLs and events of their calendars) is refused. */
  expireSyncTokens(user: DirectoryUser): void {
    const list = this.userCalendars(user);
    const floor = this.nextSeq();
    list.listSyncFloor = floor;
    for (const entry of list.entries.values()) {
      const calendar = this.calendars.get(entry.calendarId);
      if (!calendar) continue;
      calendar.eventsSyncFloor = floor;
      calendar.aclSyncFloor = floor;
    }
  }

  // ---------------------------------------------------------------- state

  dropUser(userId: string): void {
    this.users.delete(userId);
    for (const calendar of this.calendars.values()) {
      if (calendar.ownerId === userId) this.calendars.delete(calendar.id);
    }
  }

  snapshot(): CalendarSnapshot {
    return {
      seq: this.seq,
      tokenLifetimeMs: this.tokenLifetimeMs,
      calendars: [...this.calendars.values()].map((calendar) => ({
        ...structuredClone({ ...calendar, acl: undefined, events: undefined }),
        acl: [...calendar.acl.values()].map((rule) => structuredClone(rule)),
        events: [...calendar.events.values()].map((event) => structuredClone(event)),
      })),
      users: [...this.users.values()].map((list) => ({
        ...list,
        entries: [...list.entries.values()].map((entry) => structuredClone(entry)),
      })),
    };
  }

  restore(snapshot: CalendarSnapshot | undefined): void {
    this.calendars.clear();
    this.users.clear();
    if (!snapshot) return;
    this.seq = snapshot.seq;
    this.tokenLifetimeMs = snapshot.tokenLifetimeMs ?? DEFAULT_SYNC_TOKEN_LIFETIME_MS;
    for (const saved of snapshot.calendars) {
      const calendar: StoredCalendar = {
        ...structuredClone(saved),
        acl: new Map(saved.acl.map((rule) => [rule.id, structuredClone(rule)])),
        events: new Map(saved.events.map((event) => [event.id, structuredClone(event)])),
      };
      this.calendars.set(calendar.id, calendar);
    }
    for (const saved of snapshot.users) {
      this.users.set(saved.userId, {
        ...saved,
        entries: new Map(saved.entries.map((entry) => [entry.calendarId, structuredClone(entry)])),
      });
    }
  }
}
