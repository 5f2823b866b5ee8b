/**
 * The drawing of a drill's sample (see worker.ts): per resource, up to `sampleSize` mail messages (each
 * with spares to stand in for it) and up to `sampleSize` Drive files, by reservoir sampling over the
 * resource's catalog, in one walk and one read per item; the drawn items are written in drawing order.
 */
import { DRILL_MAX_FILE_BYTES, type DrillService } from "@alpvault/contracts/drills";
import { itemKindOf } from "@alpvault/contracts/services";
import { itemsAfter } from "../backups/service";
import type { CatalogItem, ItemKind } from "../engine/runner/catalog";
import type { Scope } from "../lib/tenancy";
import { writeItems, type StoredDrillItem, type StoredDrillRun } from "./repo";

/** Items read per catalog page while drawing. */
const SAMPLING_PAGE = 300;
/** The name a drill shows for an item: the message's subject or the file's name. */
export function itemName(item: CatalogItem): string {
  const display = item.search.display as { subject?: string; name?: string } | undefined;
  return display?.subject ?? display?.name ?? item.current.metadata.name ?? item.itemKey;
}

/** Whether a backed-up file can be proven byte for byte by a restore (see worker.ts). */
function drawableFile(item: CatalogItem): boolean {
  const metadata = item.current.metadata;
  return (
    !metadata.native &&
    !metadata.shortcut &&
    !metadata.contentSkipped &&
    !metadata.mimeType?.startsWith("application/vnd.google-apps.") &&
    item.current.size <= DRILL_MAX_FILE_BYTES
  );
}

interface Draw {
  /** Items drawn beside each sampled one to stand in for it (see check.ts, restorableMessage). */
  spares: number;
  /** The sandbox's own items are in it already: none is drawn from the sandbox's resource. */
  sandboxHoldsItsOwn: boolean;
  /** Whether a restore can prove the item byte for byte. */
  drawable(item: CatalogItem): boolean;
}

/**
 * How a drill draws each service's items, in the order it draws them: a message beside two spares that
 * stand in for it when the sandbox already holds its Message-ID; files Google can give back byte for byte.
 */
export const DRILL_DRAWS: Readonly<Record<DrillService, Draw>> = {
  gmail: { spares: 2, sandboxHoldsItsOwn: true, drawable: () => true },
  drive: { spares: 0, sandboxHoldsItsOwn: false, drawable: drawableFile },
};

/** Reservoir sampling (Algorithm R) of up to `size` drawable items of a kind, in one walk of the catalog. */
async function drawSample(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  size: number,
  random: (below: number) => number,
  drawable: (item: CatalogItem) => boolean,
): Promise<CatalogItem[]> {
  const reservoir: CatalogItem[] = [];
  let seen = 0;
  let after: string | null = null;
  for (;;) {
    const page = await itemsAfter(scope, resourceId, kind, after, SAMPLING_PAGE);
    for (const item of page) {
      if (!drawable(item)) continue;
      seen += 1;
      if (reservoir.length < size) reservoir.push(item);
      else {
        const slot = random(seen);
        if (slot < size) reservoir[slot] = item;
      }
    }
    if (page.length < SAMPLING_PAGE) return reservoir;
    after = page[page.length - 1]!.itemKey;
  }
}

/** The items in a random order (Fisher–Yates): a reservoir that took the whole catalog is in key order. */
function shuffled<T>(items: T[], random: (below: number) => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/** Draws the sample of the resource in hand, writes its items and moves the run's position onto them. */
export async function sampleResource(
  scope: Scope,
  run: StoredDrillRun,
  resource: { resourceId: string; name: string },
  random: (below: number) => number,
): Promise<void> {
  const drawn: StoredDrillItem[] = [];
  let seq = run.position.itemsTo;
  for (const [service, draw] of Object.entries(DRILL_DRAWS) as [
    DrillService,
    (typeof DRILL_DRAWS)[DrillService],
  ][]) {
    if (draw.sandboxHoldsItsOwn && resource.resourceId === run.sandboxResourceId) continue;
    const kind: ItemKind = itemKindOf(service);
    const spares = draw.spares;
    const pool = shuffled(
      await drawSample(
        scope,
        resource.resourceId,
        kind,
        run.sampleSize * (1 + spares),
        random,
        draw.drawable,
      ),
      random,
    );
    const chosen = pool.slice(0, run.sampleSize);
    const rest = pool.slice(chosen.length);
    for (const [index, item] of chosen.entries()) {
      drawn.push({
        seq: seq++,
        itemKey: item.itemKey,
        resourceId: resource.resourceId,
        resourceName: resource.name,
        service,
        name: itemName(item),
        outcome: null,
        reason: null,
        ...(spares > 0
          ? {
              spares: rest
                .filter((_, spare) => spare % chosen.length === index)
                .map((spare) => ({ itemKey: spare.itemKey, name: itemName(spare) })),
            }
          : {}),
      });
    }
  }
  await writeItems(scope, run.drillRunId, drawn);
  run.position = { ...run.position, sampled: true, itemsFrom: run.position.itemsTo, itemsTo: seq };
  run.position.itemIndex = run.position.itemsFrom;
  if (drawn.length > 0) {
    run.resources.push({
      resourceId: resource.resourceId,
      name: resource.name,
      sample: drawn.length,
      matched: 0,
      mismatched: 0,
      failed: 0,
      skipped: 0,
    });
  }
  run.counts.sample += drawn.length;
}
