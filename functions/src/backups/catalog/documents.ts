/**
 * The catalog's stored documents (docs/backup-format.md §6), one schema each (lib/stored.ts):
 * `resources/{resourceId}/items/{itemDocId}` (an item with a summary of its current version),
 * `…/items/{itemDocId}/versions/{versionDocId}`, `chunkRefs/{chunkId}` (the chunk index) and
 * `resources/{resourceId}/backupState/mailLabels` (the mailbox's Gmail label names).
 *
 * They are what `FirestoreCatalog` (repo.ts) and `labels-repo.ts` write. Versions written before
 * `endedAt` existed lack it, items written before their current version's capture time was kept lack
 * `current.capturedAt`, items dated no later than their first backup lack `datedLater`, and Firestore
 * leaves out what a write left undefined (every optional field below).
 */
import { z } from "zod/mini";
import type { ChunkRef } from "../../engine/format/chunk-codec";
import type { CatalogItem, CatalogVersion, ChunkList, CurrentVersion } from "../../engine/runner/catalog";
import { ITEM_KINDS } from "@alpvault/contracts/services";
import type {
  CalendarSearchFields,
  ContactSearchFields,
  DriveNativeInfo,
  DrivePermission,
  DriveSearchFields,
  ItemMetadata,
  MailLabel,
  MailSearchFields,
  SearchFields,
} from "../../engine/sources/source";
import { storedKind } from "../../lib/stored";

/**
 * A map of texts (Drive's `properties`, a mailbox's label names): checked as a whole, so an error names
 * the field and never one of its keys (the customer's).
 */
export const textRecord = z.custom<Record<string, string>>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === "string"),
);

const texts = z.array(z.string());

export const itemKindSchema = z.enum(ITEM_KINDS);

const mailLabelSchema: z.ZodMiniType<MailLabel> = z.object({ id: z.string(), name: z.string() });

const permissionSchema: z.ZodMiniType<DrivePermission> = z.object({
  id: z.string(),
  type: z.string(),
  role: z.string(),
  emailAddress: z.optional(z.string()),
  domain: z.optional(z.string()),
  displayName: z.optional(z.string()),
  allowFileDiscovery: z.optional(z.boolean()),
  inherited: z.optional(z.boolean()),
});

const nativeSchema: z.ZodMiniType<DriveNativeInfo> = z.object({
  mimeType: z.string(),
  exportMimeType: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  properties: z.optional(textRecord),
  appProperties: z.optional(textRecord),
  parents: texts,
  path: z.string(),
});

/** A version's metadata: Gmail fills the mail fields, Drive the rest (engine/drive/metadata.ts). */
export const itemMetadataSchema: z.ZodMiniType<ItemMetadata> = z.object({
  labels: z.optional(z.array(mailLabelSchema)),
  threadId: z.optional(z.string()),
  internalDate: z.optional(z.number()),
  historyId: z.optional(z.string()),
  rebuilt: z.optional(z.literal("from-full-format")),
  name: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  path: z.optional(z.string()),
  parents: z.optional(texts),
  driveId: z.optional(z.string()),
  headRevisionId: z.optional(z.string()),
  version: z.optional(z.string()),
  modifiedTime: z.optional(z.string()),
  createdTime: z.optional(z.string()),
  trashed: z.optional(z.boolean()),
  md5Checksum: z.optional(z.string()),
  description: z.optional(z.string()),
  properties: z.optional(textRecord),
  appProperties: z.optional(textRecord),
  permissions: z.optional(z.array(permissionSchema)),
  native: z.optional(nativeSchema),
  shortcut: z.optional(
    z.object({
      targetId: z.string(),
      targetMimeType: z.optional(z.string()),
      targetResourceKey: z.optional(z.string()),
    }),
  ),
  contentSkipped: z.optional(z.literal("not-exportable")),
  externalOwner: z.optional(z.string()),
  calendarEntry: z.optional(z.enum(["calendar", "event"])),
  calendarId: z.optional(z.string()),
  eventId: z.optional(z.string()),
  iCalUID: z.optional(z.string()),
  recurringEventId: z.optional(z.string()),
  contactEntry: z.optional(z.enum(["contact", "group", "other-contact"])),
  resourceName: z.optional(z.string()),
});

const mailSearchSchema: z.ZodMiniType<MailSearchFields> = z.object({
  kind: z.literal("mail"),
  display: z.optional(z.object({ subject: z.string(), fromName: z.string() })),
  subject: z.string(),
  fromName: z.string(),
  fromEmail: z.string(),
  to: texts,
  date: z.string(),
  labels: texts,
  size: z.number(),
  keywords: texts,
});

const driveSearchSchema: z.ZodMiniType<DriveSearchFields> = z.object({
  kind: z.literal("drive"),
  display: z.optional(z.object({ name: z.string(), path: z.string() })),
  name: z.string(),
  path: z.string(),
  mimeType: z.string(),
  createdBy: z.string(),
  modifiedTime: z.string(),
  size: z.number(),
  googleId: z.string(),
  keywords: texts,
});

const calendarSearchSchema: z.ZodMiniType<CalendarSearchFields> = z.object({
  kind: z.literal("calendar"),
  display: z.optional(z.object({ summary: z.string(), calendar: z.string() })),
  entry: z.enum(["calendar", "event"]),
  summary: z.string(),
  organizer: z.string(),
  attendees: texts,
  start: z.string(),
  end: z.string(),
  long: z.optional(z.literal(true)),
  calendarId: z.string(),
  timeZone: z.optional(z.string()),
  recurrence: z.optional(texts),
  recurring: z.optional(z.literal(true)),
  cancelled: z.optional(z.literal(true)),
  keywords: texts,
});

const contactSearchSchema: z.ZodMiniType<ContactSearchFields> = z.object({
  kind: z.literal("contact"),
  display: z.optional(
    z.object({ name: z.string(), email: z.string(), groups: z.optional(z.array(z.string())) }),
  ),
  entry: z.enum(["contact", "group", "other-contact"]),
  name: z.string(),
  emails: texts,
  phones: texts,
  groups: texts,
  keywords: texts,
});

/** Search fields (docs/backup-format.md §6), of a mail, a file, a calendar entry or a contact. */
export const searchFieldsSchema: z.ZodMiniType<SearchFields> = z.union([
  mailSearchSchema,
  driveSearchSchema,
  calendarSearchSchema,
  contactSearchSchema,
]);

const chunkRefSchema: z.ZodMiniType<ChunkRef> = z.object({ id: z.string(), size: z.number() });

/** Inline chunks, or the manifest object that lists them. */
const chunkListSchema: z.ZodMiniType<ChunkList> = z.union([
  z.object({ chunks: z.array(chunkRefSchema) }),
  z.object({ manifestObject: z.string() }),
]);

/** The fields a version shares with the summary of it its item keeps (`current`). */
const versionSummary = {
  versionId: z.string(),
  versionKey: z.string(),
  contentKey: z.string(),
  capturedAt: z.string(),
  size: z.number(),
  contentDigest: z.string(),
  dataKeyId: z.string(),
  metadata: itemMetadataSchema,
  healedAt: z.optional(z.string()),
};

export const catalogVersionSchema: z.ZodMiniType<CatalogVersion> = z.intersection(
  z.object({
    ...versionSummary,
    itemKey: z.string(),
    kind: itemKindSchema,
    runId: z.string(),
    storedBytes: z.number(),
    search: searchFieldsSchema,
    formatVersion: z.literal(1),
    endedAt: z.optional(z.nullable(z.string())),
  }),
  chunkListSchema,
);

const currentVersionSchema: z.ZodMiniType<CurrentVersion> = z.intersection(
  z.object({ ...versionSummary, capturedAt: z.optional(z.string()) }),
  chunkListSchema,
);

/** An item's own fields, beside its current version (search reads them alone: search/repo.ts). */
export const catalogItemFields = {
  itemKey: z.string(),
  kind: itemKindSchema,
  sourceId: z.string(),
  currentVersionId: z.string(),
  /** Always written (null while the item exists at the source); read as null where absent. */
  deletedAtSource: z._default(z.nullable(z.string()), null),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  search: searchFieldsSchema,
  datedLater: z.optional(z.literal(true)),
};

export const catalogItemSchema: z.ZodMiniType<CatalogItem> = z.object({
  ...catalogItemFields,
  current: currentVersionSchema,
});

/** `…/items/{itemDocId}`: an item and the summary of its current version. */
export const CATALOG_ITEM = storedKind("catalog item", catalogItemSchema);

/** What search reads of an item: its own fields, its current version's capture and Drive version. */
export interface CatalogItemSearchView extends Pick<
  CatalogItem,
  "itemKey" | "currentVersionId" | "deletedAtSource" | "firstSeenAt" | "lastSeenAt" | "search"
> {
  current?: { metadata?: Pick<ItemMetadata, "version" | "contentSkipped">; capturedAt?: string };
}

/** The fields of an item search selects (`SEARCH_VIEW_FIELDS`), as the item's schema reads them. */
export const SEARCH_VIEW_FIELDS = [
  "itemKey",
  "currentVersionId",
  "deletedAtSource",
  "firstSeenAt",
  "lastSeenAt",
  "search",
  "current.metadata.version",
  "current.metadata.contentSkipped",
  "current.capturedAt",
  "sealed",
  // A page's cursor is its last document: the fields format v2 orders by must be in it.
  "index.date",
  "index.modified",
  "index.start",
];

/** `…/items/{itemDocId}` read with only `SEARCH_VIEW_FIELDS` selected (search/repo.ts). */
export const CATALOG_ITEM_SEARCH_VIEW = storedKind<CatalogItemSearchView>(
  "catalog item",
  z.object({
    itemKey: catalogItemFields.itemKey,
    currentVersionId: catalogItemFields.currentVersionId,
    deletedAtSource: catalogItemFields.deletedAtSource,
    firstSeenAt: catalogItemFields.firstSeenAt,
    lastSeenAt: catalogItemFields.lastSeenAt,
    search: catalogItemFields.search,
    current: z.object({
      metadata: z.optional(
        z.object({
          version: z.optional(z.string()),
          contentSkipped: z.optional(z.literal("not-exportable")),
        }),
      ),
      capturedAt: z.optional(z.string()),
    }),
  }),
);

/** `…/items/{itemDocId}/versions/{versionDocId}`. */
export const CATALOG_VERSION = storedKind("catalog version", catalogVersionSchema);

/** What a version keeps in clear in either format: retention and verification read nothing else. */
export interface CatalogVersionChunks {
  versionId: string;
  capturedAt: string;
  endedAt?: string | null;
  dataKeyId: string;
  contentDigest: string;
}

/** `…/versions/{versionDocId}` read for its chunks, dates and keys only (no key needed, §9.2). */
export const CATALOG_VERSION_CHUNKS = storedKind<CatalogVersionChunks & ChunkList>(
  "catalog version",
  z.intersection(
    z.object({
      versionId: z.string(),
      capturedAt: z.string(),
      endedAt: z.optional(z.nullable(z.string())),
      dataKeyId: z.string(),
      contentDigest: z.string(),
    }),
    chunkListSchema,
  ),
);

/** `…/items/{itemDocId}` read for its state only (either format). */
export const CATALOG_ITEM_STATE = storedKind<
  Pick<CatalogItem, "itemKey" | "currentVersionId" | "deletedAtSource"> & {
    current: { healedAt?: string };
  }
>(
  "catalog item",
  z.object({
    itemKey: catalogItemFields.itemKey,
    currentVersionId: catalogItemFields.currentVersionId,
    deletedAtSource: catalogItemFields.deletedAtSource,
    current: z.object({ healedAt: z.optional(z.string()) }),
  }),
);

/** `…/items/{itemDocId}` of a file, read with only its folder path selected (a browse's folders). */
export const CATALOG_ITEM_FOLDER_VIEW = storedKind<{ search: { path: string; display?: { path: string } } }>(
  "catalog item",
  z.object({
    search: z.object({ path: z.string(), display: z.optional(z.object({ path: z.string() })) }),
  }),
);

/** A chunk index entry: sizes and data key from the run that first stored it (absent when reused). */
export interface StoredChunkEntry {
  size?: number;
  storedSize?: number;
  dataKeyId?: string;
  firstRunId: string;
  lastReferencedAt: string;
  /** When verification last read the chunk and found it good. */
  verifiedAt?: string;
}

/** `chunkRefs/{chunkId}`. */
export const CHUNK_ENTRY = storedKind<StoredChunkEntry>(
  "chunk index entry",
  z.object({
    size: z.optional(z.number()),
    storedSize: z.optional(z.number()),
    dataKeyId: z.optional(z.string()),
    firstRunId: z.string(),
    lastReferencedAt: z.string(),
    verifiedAt: z.optional(z.string()),
  }),
);

/** A mailbox's Gmail user label names (id → name) as its last backup saw them. */
export interface StoredMailLabels {
  labels: Record<string, string>;
  updatedAt: string;
  /** When a run last compared them with Gmail's (absent: never). */
  checkedAt?: string;
}

/** `resources/{resourceId}/backupState/mailLabels`. */
export const MAIL_LABELS = storedKind<StoredMailLabels>(
  "mail label names",
  z.object({ labels: textRecord, updatedAt: z.string(), checkedAt: z.optional(z.string()) }),
);

/** A drive folder of catalog format v2 (folders-repo.ts). */
export interface StoredFolder {
  key: string;
  parent: string;
  sealed: string;
  firstSeenAt: string;
}

/** `resources/{resourceId}/folders/{token}`. */
export const CATALOG_FOLDER = storedKind<StoredFolder>(
  "catalog folder",
  z.object({ key: z.string(), parent: z.string(), sealed: z.string(), firstSeenAt: z.string() }),
);
