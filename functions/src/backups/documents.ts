/**
 * Stored documents of the backups module besides the catalog and the runs (`catalog/documents.ts`,
 * `catalog/run-documents.ts`) and verification (`verify/documents.ts`), one schema each (lib/stored.ts):
 * the organisation's data key records (`dataKeys/{dataKeyId}`, docs/backup-format.md §2) and its activity
 * per UTC day (`dailyActivity/{YYYY-MM-DD}`).
 */
import { z } from "zod/mini";
import type { ServiceId } from "@alpvault/contracts/services";
import { dataKeyRecordSchema } from "../engine/format/keys";
import { storedKind, storedKindWithId } from "../lib/stored";

/** `dataKeys/{dataKeyId}`: as the engine checks a data key record (`retiredAt` is not read). */
export const DATA_KEY = storedKind("data key record", dataKeyRecordSchema);

/** A day of the organisation's backups (`date`: its document id). */
export interface StoredDay {
  date: string;
  /** Runs ended that day, by outcome. */
  runs: { ok: number; partial: number; failed: number };
  /** Items and source bytes those runs backed up. */
  items: number;
  bytes: number;
  /** The protected storage per service as last recorded that day (null: none recorded). */
  storage: Record<ServiceId, number> | null;
  /** When that figure was measured (a later one replaces it, an earlier one never does). */
  storageAt?: string;
}

const figure = z._default(z.number(), 0);

/**
 * `dailyActivity/{day}`: written field by field (`history-repo.ts`: a run's counters by increments, the
 * storage figure on its own), so any part may be missing and reads as none.
 */
export const DAILY_ACTIVITY = storedKindWithId<StoredDay>(
  "daily backup activity",
  "date",
  z.object({
    date: z.string(),
    runs: z._default(z.object({ ok: figure, partial: figure, failed: figure }), {
      ok: 0,
      partial: 0,
      failed: 0,
    }),
    items: figure,
    bytes: figure,
    // A day recorded before Calendar and Contacts were counted holds none of theirs.
    storage: z._default(
      z.nullable(
        z.object({
          gmail: z.number(),
          drive: z.number(),
          calendar: z._default(z.number(), 0),
          contacts: z._default(z.number(), 0),
        }),
      ),
      null,
    ),
    storageAt: z.optional(z.string()),
  }),
);

/**
 * `meta/catalog`: the catalog format new backups are written in (docs/backup-format.md §9.6). Absent:
 * version 1; `format: 2` once the organisation's catalog moves to version 2 (the migration's start).
 */
export interface StoredCatalogFormat {
  format: 2;
  since: string;
}

export const CATALOG_FORMAT = storedKind<StoredCatalogFormat>(
  "catalog format",
  z.object({ format: z.literal(2), since: z.string() }),
);
