/**
 * What each kind of work spends of Google's quota per item and per byte, from the calls the engine makes for
 * it (`google/costs.ts` prices them under the project's model; nothing here is a copy of a price):
 *
 * - Gmail backup (`gmail/source.ts`): one `messages.get` per message, one `messages.list` per page of
 *   `GMAIL_LIST_PAGE_SIZE` (the run's `getProfile` and `labels.list` are a few units per run, left out).
 * - Drive backup (`drive/source.ts`): one download (`files.get alt=media`, or an export link: the same
 *   price) and one `permissions.list` per file, one `files.list` per page of `DRIVE_LIST_PAGE_SIZE`.
 * - Gmail restore (`gmail/restorer.ts`): one `messages.import` per message (labels are found or created
 *   once per recovery).
 * - Drive restore (`drive/restorer.ts`): one `files.create` per file, and one more per resumable piece of
 *   `UPLOAD_PIECE_BYTES` (counted per byte: a small file is slightly over-counted). Sharing again
 *   (`permissions.create`) is left out.
 * - Calendar backup (`calendar/source.ts`): one `events.list` per page of `CALENDAR_EVENTS_PAGE_SIZE` (the
 *   calendar list and each calendar's ACL are a few requests per run, left out); restore: one
 *   `events.import` per event.
 * - Contacts backup (`contacts/source.ts`): one `connections.list` per page of
 *   `PEOPLE_CONNECTIONS_PAGE_SIZE`; restore: one `batchCreateContacts` per `PEOPLE_BATCH_CREATE_SIZE`
 *   contacts (photos, one call each, are left out).
 * - Export: no Google call at all.
 */
import type { WorkKind } from "@alpvault/contracts/eta";
import type { GoogleApi } from "../google/caller";
import { modelCost, type QuotaModel } from "../google/costs";
import { UPLOAD_PIECE_BYTES } from "../drive/restorer";
import { DRIVE_LIST_PAGE_SIZE } from "../drive/source";
import { GMAIL_LIST_PAGE_SIZE } from "../gmail/source";
import { CALENDAR_EVENTS_PAGE_SIZE } from "../calendar/limits";
import { PEOPLE_BATCH_CREATE_SIZE, PEOPLE_CONNECTIONS_PAGE_SIZE } from "../contacts/limits";

export interface WorkCosts {
  api: Exclude<GoogleApi, "directory">;
  /** Quota units per item and per byte. */
  perItem: number;
  perByte: number;
}

/** The quota a kind of work spends, under a model; undefined for work that calls no Google API. */
export function workCosts(model: QuotaModel, work: WorkKind): WorkCosts | undefined {
  const cost = (method: string) => modelCost(model, method);
  switch (work) {
    case "gmail-backup":
      return {
        api: "gmail",
        perItem: cost("gmail.users.messages.get") + cost("gmail.users.messages.list") / GMAIL_LIST_PAGE_SIZE,
        perByte: 0,
      };
    case "drive-backup":
      return {
        api: "drive",
        perItem:
          cost("drive.files.download") +
          cost("drive.permissions.list") +
          cost("drive.files.list") / DRIVE_LIST_PAGE_SIZE,
        perByte: 0,
      };
    case "gmail-restore":
      return { api: "gmail", perItem: cost("gmail.users.messages.import"), perByte: 0 };
    case "drive-restore":
      return {
        api: "drive",
        perItem: cost("drive.files.create"),
        perByte: cost("drive.files.create") / UPLOAD_PIECE_BYTES,
      };
    case "calendar-backup":
      return {
        api: "calendar",
        perItem: cost("calendar.events.list") / CALENDAR_EVENTS_PAGE_SIZE,
        perByte: 0,
      };
    case "calendar-restore":
      return { api: "calendar", perItem: cost("calendar.events.import"), perByte: 0 };
    case "contacts-backup":
      return {
        api: "people",
        perItem: cost("people.people.connections.list") / PEOPLE_CONNECTIONS_PAGE_SIZE,
        perByte: 0,
      };
    case "contacts-restore":
      return {
        api: "people",
        perItem: cost("people.people.batchCreateContacts") / PEOPLE_BATCH_CREATE_SIZE,
        perByte: 0,
      };
    case "export":
      return undefined;
  }
}

/** The quota units of `items` and `bytes` of a kind of work, or undefined when a figure it needs is unknown. */
export function unitsOf(
  costs: WorkCosts,
  left: { items: number | null; bytes: number | null },
): number | undefined {
  if (left.items === null && costs.perItem > 0) return undefined;
  const bytes = costs.perByte > 0 ? (left.bytes ?? 0) : 0;
  return (left.items ?? 0) * costs.perItem + bytes * costs.perByte;
}
