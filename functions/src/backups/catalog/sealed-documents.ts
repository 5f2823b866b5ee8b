/**
 * Catalog format v2's item and version documents (docs/backup-format.md §9.2, §9.3): what a v1 document
 * keeps in clear that a person wrote or that names a person — its search fields and its version's metadata
 * — is one sealed value, `sealed`, under the organisation's data key, and an item gains its clear `index`
 * (search tokens, dates, sizes, marks). Opened again, a v2 document is the v1 form the rest of the product
 * reads, so the schemas of documents.ts decode both. A v1 document (no `sealed`) is read as it is.
 *
 * Kept in clear besides: ids, sizes, dates, chunk lists, and of the metadata only the product's own mark
 * `contentSkipped` (totals count the items kept without content by a query on it).
 */
import type { CatalogItem, CatalogVersion } from "../../engine/runner/catalog";
import { catalogIndex } from "../../engine/format/catalog-index";
import { openValue, sealValue, sealedKeyId, type SealPlace } from "../../engine/format/catalog-seal";
import { EncryptionError, FormatError } from "../../engine/format/errors";
import type { DerivedKeys } from "../../engine/format/keys";
import { stripUndefined } from "../../lib/strip-undefined";
import type { StoredKind } from "../../lib/stored";
import type { Scope } from "../../lib/tenancy";
import {
  CATALOG_ITEM,
  CATALOG_ITEM_SEARCH_VIEW,
  CATALOG_VERSION,
  type CatalogItemSearchView,
} from "./documents";

/** A document's fields as written. */
export type StoredData = Record<string, unknown>;

/** The derived keys of an organisation's data keys, opened for a call or a job. */
export interface CatalogKeyring {
  readonly organizationId: string;
  /** The keys of a data key of the organisation; a `FormatError` for a key it does not have. */
  keys(dataKeyId: string): DerivedKeys;
  /** Every key it holds (a search computes its tokens under each, §9.4). */
  all(): DerivedKeys[];
}

/** A keyring of the keys given (opened by data-keys.ts, or in tests). */
export function keyringOf(organizationId: string, keys: readonly DerivedKeys[]): CatalogKeyring {
  const byId = new Map(keys.map((entry) => [entry.dataKeyId, entry]));
  return {
    organizationId,
    keys(dataKeyId) {
      const found = byId.get(dataKeyId);
      if (!found)
        throw new FormatError("A catalog document names a data key the organisation does not have.");
      return found;
    },
    all: () => [...byId.values()],
  };
}

/** A v2 document read through a scope whose catalog keys were not opened (a defect of the reader). */
export class MissingCatalogKeysError extends Error {
  constructor() {
    super("A sealed catalog document was read without the organisation's catalog keys.");
    this.name = "MissingCatalogKeysError";
  }
}

/** The document field of a sealed value. */
const SEALED = "sealed";

/** Where an item or version document is (its sealed value names it, §9.2). */
export interface DocumentPlace {
  organizationId: string;
  resourceId: string;
  /** The item document's id, or `<item id>/<version id>` for a version. */
  documentId: string;
}

function sealPlace(place: DocumentPlace): SealPlace {
  return { ...place, field: SEALED };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The clear part of a version's metadata in v2: the product's own mark only. */
function clearMetadata(metadata: CatalogItem["current"]["metadata"]): Record<string, unknown> {
  return metadata.contentSkipped ? { contentSkipped: metadata.contentSkipped } : {};
}

/** An item as format v2 stores it under `keys`. */
export function sealedItem(keys: DerivedKeys, place: DocumentPlace, item: CatalogItem): StoredData {
  const { search, current, ...fields } = item;
  const sealed = sealValue(keys, sealPlace(place), { search, metadata: current.metadata });
  return stripUndefined({
    ...fields,
    current: { ...current, metadata: clearMetadata(current.metadata) },
    [SEALED]: sealed,
    index: catalogIndex(keys, search),
  });
}

/** A version as format v2 stores it under `keys`. */
export function sealedVersion(keys: DerivedKeys, place: DocumentPlace, version: CatalogVersion): StoredData {
  const { search, metadata, ...fields } = version;
  const sealed = sealValue(keys, sealPlace(place), { search, metadata });
  return stripUndefined({ ...fields, metadata: clearMetadata(metadata), [SEALED]: sealed });
}

/** Whether stored data is of format v2 (it has a sealed value). */
export function isSealed(data: unknown): data is SealedData {
  return isRecord(data) && typeof data[SEALED] === "string";
}

/** Stored data of format v2. */
type SealedData = Record<string, unknown> & { sealed: string };

/**
 * The sealed value of v2 data opened: `{search, metadata}`, and the document's other fields. A value that
 * does not open is an `EncryptionError` or `FormatError` of catalog-seal.ts; reading one without the keys
 * is a mistake of the caller (`MissingCatalogKeysError`), not of the data.
 */
function opened(
  keyring: CatalogKeyring | undefined,
  place: DocumentPlace,
  data: SealedData,
): { fields: Record<string, unknown>; search: unknown; metadata: Record<string, unknown> } {
  if (!keyring) throw new MissingCatalogKeysError();
  const { [SEALED]: sealed, index: _index, ...fields } = data;
  const value = openValue(keyring.keys(sealedKeyId(sealed)), sealPlace(place), sealed);
  const inner = isRecord(value) ? value : {};
  return { fields, search: inner.search, metadata: isRecord(inner.metadata) ? inner.metadata : {} };
}

/** `holder` (an item's `current`, or a version) with its sealed metadata back, under the metadata it keeps in clear. */
function withMetadata(holder: unknown, metadata: Record<string, unknown>): Record<string, unknown> {
  const own = isRecord(holder) ? holder : {};
  const clear = isRecord(own.metadata) ? own.metadata : {};
  return { ...own, metadata: { ...metadata, ...clear } };
}

/** How v2 data of a kind opens into the v1 form its schema decodes. */
type Opener = (keyring: CatalogKeyring | undefined, place: DocumentPlace, data: SealedData) => unknown;

const openedItemData: Opener = (keyring, place, data) => {
  const { fields, search, metadata } = opened(keyring, place, data);
  return { ...fields, search, current: withMetadata(fields.current, metadata) };
};

const openedVersionData: Opener = (keyring, place, data) => {
  const { fields, search, metadata } = opened(keyring, place, data);
  return { ...withMetadata(fields, metadata), search };
};

/**
 * An organisation's scope with its catalog's keys, when they were opened for the call or job
 * (`openCatalogKeys`, backups/data-keys.ts): what reads a v2 catalog document needs.
 */
export interface CatalogScope extends Scope {
  keyring?: CatalogKeyring;
}

const ITEM_PATH = /^organizations\/([^/]+)\/resources\/([^/]+)\/items\/([^/]+)(?:\/versions\/([^/]+))?$/;

/** The place of an item or version document, by its path. */
function placeOfPath(path: string | undefined): DocumentPlace | undefined {
  const match = path ? ITEM_PATH.exec(path) : null;
  if (!match) return undefined;
  const [, organizationId, resourceId, itemId, versionId] = match as unknown as string[];
  return {
    organizationId: organizationId as string,
    resourceId: resourceId as string,
    documentId: versionId ? `${itemId}/${versionId}` : (itemId as string),
  };
}

/**
 * `kind` reading v2 documents too: their sealed value opened with the keyring first. A sealed value that
 * does not open (tampered, moved, malformed) makes the document undecodable, as a bad field does; a key
 * that is not open is the `EncryptionKeyError` it is.
 */
function opening<T>(kind: StoredKind<T>, open: Opener, keyring: CatalogKeyring | undefined): StoredKind<T> {
  return {
    name: kind.name,
    decode(data, id, path) {
      if (!isSealed(data)) return kind.decode(data, id, path);
      const place = placeOfPath(path);
      if (!place) return { success: false, fields: ["sealed"] };
      try {
        return kind.decode(open(keyring, place, data), id, path);
      } catch (error) {
        if (error instanceof EncryptionError || error instanceof FormatError) {
          return { success: false, fields: ["sealed"] };
        }
        throw error;
      }
    },
  };
}

/** Item documents of either format, as the scope's keys read them. */
export function catalogItemKind(scope: CatalogScope): StoredKind<CatalogItem> {
  return opening(CATALOG_ITEM, openedItemData, scope.keyring);
}

/** Item documents read with only search's fields selected (`SEARCH_VIEW_FIELDS`, `sealed` among them). */
export function catalogSearchViewKind(scope: CatalogScope): StoredKind<CatalogItemSearchView> {
  return opening(CATALOG_ITEM_SEARCH_VIEW, openedItemData, scope.keyring);
}

/** Version documents of either format. */
export function catalogVersionKind(scope: CatalogScope): StoredKind<CatalogVersion> {
  return opening(CATALOG_VERSION, openedVersionData, scope.keyring);
}
