/** What one batch of a run has stored and still has to record, and the small helpers around it. */
import { itemKindOf, serviceOfSearchKind } from "@alpvault/contracts/services";
import type { ChangeBatch, SearchFields, Source, SourceKind } from "../sources/source";
import type { CatalogVersion, ChunkRecord, ItemError, ItemKind, PartialItem } from "./catalog";

/** What one batch has stored so far and still has to record. */
export class BatchWork {
  /** Chunks this batch encoded and wrote (or found written), by id. */
  readonly written = new Map<string, ChunkRecord>();
  /** Chunks the index already had that this batch names again (refreshes `lastReferencedAt`). */
  readonly reused = new Set<string>();
  readonly versions: CatalogVersion[] = [];
  readonly deletes: string[] = [];
  readonly errors: ItemError[] = [];
  /** The large item left in the middle (null: the one there was is done; undefined: unchanged). */
  partial?: PartialItem | null;
}

/** The service a version belongs to. */
export const serviceOfSearch = (search: SearchFields): SourceKind => serviceOfSearchKind(search.kind);

/** The catalog kind of a stream's items. */
export const kindOfStream = (kind: Source["kind"]): ItemKind => itemKindOf(kind);

/** The keys of a batch's upserts (the items a listing saw). */
export const upsertKeys = (batch: ChangeBatch): string[] =>
  batch.changes.flatMap((change) => (change.type === "upsert" ? [change.item.itemKey] : []));

/** The catalog kind of a version, from its search fields (one run may carry mail and files). */
export const kindOf = (search: SearchFields): ItemKind => itemKindOf(serviceOfSearchKind(search.kind));

export function slices<T>(values: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}
