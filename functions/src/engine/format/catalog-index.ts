/**
 * What a catalog item of format v2 keeps in clear for its queries (docs/backup-format.md §9.3): its search
 * fields' words and places as search tokens under the data key's `search` key, and the dates, sizes and
 * marks as they are. Everything a person wrote stays in the sealed search fields; this is what Firestore
 * filters and orders by, and nothing of it reads without the key.
 */
import type { SearchFields } from "../sources/search-fields";
import { searchToken, searchTokens } from "./catalog-seal";
import type { DerivedKeys } from "./keys";
import { indexedParts, type IndexedParts } from "../services";

/** The one-letter token field of each kind of searched value (§9.3). */
export const TOKEN_FIELDS = { word: "w", label: "l", path: "p", group: "g", calendar: "c" } as const;

/**
 * An item's clear `index` (format v2): its tokens, and its dates (ISO 8601, as the search fields keep
 * them), size and the product's own marks as `indexedParts` gives them.
 */
export type CatalogIndex = {
  /** The data key whose `search` key made the tokens. */
  key: string;
  words: string[];
  labels?: string[];
  path?: string;
  groups?: string[];
  calendar?: string;
} & IndexedParts["clear"];

/** The clear index of an item's search fields under `keys`. */
export function catalogIndex(keys: DerivedKeys, search: SearchFields): CatalogIndex {
  const { tokens, clear } = indexedParts(search);
  return {
    key: keys.dataKeyId,
    words: searchTokens(keys, TOKEN_FIELDS.word, search.keywords),
    ...(tokens.labels ? { labels: searchTokens(keys, TOKEN_FIELDS.label, tokens.labels) } : {}),
    ...(tokens.groups ? { groups: searchTokens(keys, TOKEN_FIELDS.group, tokens.groups) } : {}),
    ...(tokens.path !== undefined ? { path: searchToken(keys, TOKEN_FIELDS.path, tokens.path) } : {}),
    ...(tokens.calendar !== undefined
      ? { calendar: searchToken(keys, TOKEN_FIELDS.calendar, tokens.calendar) }
      : {}),
    ...clear,
  };
}
