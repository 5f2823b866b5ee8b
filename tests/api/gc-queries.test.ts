/**
 * What the garbage collector's walk over the catalog costs on the stack's Firestore: its versions are read
 * by collection group, page after page, so the number of queries does not grow with the number of items
 * (one query per item would), and retention decides from the versions (`endedAt`): no item document is
 * read, except for items with a version written before versions said when they ended. Another
 * organisation whose id starts with this one's is never read nor touched.
 */
import { randomBytes } from "node:crypto";
import { getApps, initializeApp } from "firebase-admin/app";
import { Firestore, Query, getFirestore, type QuerySnapshot } from "firebase-admin/firestore";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { collectGarbage } from "../../functions/src/backups/retention/gc";
import { FirestoreCatalog } from "../../functions/src/backups/catalog/repo";
import { stackEnv } from "../support/stack-env";
import {
  DAY,
  REGION,
  T0,
  organizationWithPolicy,
  version,
  withoutEndings,
  writeItems,
} from "../support/gc-catalog";

jest.setTimeout(120_000);

if (getApps().length === 0) initializeApp({ projectId: stackEnv.projectId });

/** Counts the queries and `getAll` calls (and the documents they return) made while `work` runs. */
async function counted<T>(work: () => Promise<T>) {
  const figures = { queries: 0, getAlls: 0, documents: 0 };
  const get = Query.prototype.get;
  const getAll = Firestore.prototype.getAll;
  const querySpy = jest.spyOn(Query.prototype, "get").mockImplementation(async function (this: Query) {
    figures.queries += 1;
    const snapshot = (await get.call(this)) as QuerySnapshot;
    figures.documents += snapshot.size;
    return snapshot;
  });
  const getAllSpy = jest.spyOn(Firestore.prototype, "getAll").mockImplementation(async function (
    this: Firestore,
    ...args: Parameters<Firestore["getAll"]>
  ) {
    figures.getAlls += 1;
    const snapshots = await getAll.apply(this, args);
    figures.documents += snapshots.length;
    return snapshots;
  });
  try {
    return { result: await work(), figures };
  } finally {
    querySpy.mockRestore();
    getAllSpy.mockRestore();
  }
}

describe("the garbage collector's reads", () => {
  test("when an organisation holds hundreds of items over two resources, then the collector reads their versions in a few pages, not one query per item, and prunes as its policy says", async () => {
    const db = getFirestore("region-ch");
    const organizationId = `org-gc-${randomBytes(5).toString("hex")}`;
    const neighbourId = `${organizationId}a`;
    await organizationWithPolicy(db, organizationId, { retentionDays: 30, archiving: false });
    // 330 items of two versions (the older one ends a day later) and 200 items of one: 860 versions.
    await writeItems(organizationId, "kept", 330, [T0, T0 + DAY]);
    await writeItems(organizationId, "free", 200, [T0]);
    await writeItems(neighbourId, "kept", 20, [T0, T0 + DAY]);
    const keys = deriveKeys(newDataKey());

    const { result, figures } = await counted(() =>
      collectGarbage({
        scope: { organizationId, regionId: REGION },
        blobStore: new MemoryBlobStore(),
        keys: () => Promise.resolve(keys),
        now: new Date(T0 + 40 * DAY),
      }),
    );

    expect(result).toMatchObject({ outcome: "done", versionsPruned: 330, itemsRemoved: 0, liveChunks: 530 });
    // Policies, resources, runs (twice) and two pages of versions; per item it would be over 530.
    expect(figures.queries).toBeLessThanOrEqual(6);
    // No item document: the versions say when they ended.
    expect(figures.getAlls).toBe(0);
    // 860 versions and the few policy and resource documents.
    expect(figures.documents).toBeLessThanOrEqual(860 + 10);
    const versionsLeft = async (orgId: string, resourceId: string) => {
      const items = await db.collection(`organizations/${orgId}/resources/${resourceId}/items`).get();
      const counts = await Promise.all(
        items.docs.map(async (item) => (await item.ref.collection("versions").get()).size),
      );
      return counts.reduce((sum, count) => sum + count, 0);
    };
    expect(await versionsLeft(organizationId, "kept")).toBe(330);
    expect(await versionsLeft(organizationId, "free")).toBe(200);
    expect(await versionsLeft(neighbourId, "kept")).toBe(40);
  });

  test("when versions were written before they said when they ended, then the collector reads those items' documents, only theirs, and prunes as before", async () => {
    const db = getFirestore("region-ch");
    const organizationId = `org-gc-${randomBytes(5).toString("hex")}`;
    await organizationWithPolicy(db, organizationId, {
      retentionDays: 30,
      archiving: false,
    });
    await writeItems(organizationId, "kept", 120, [T0, T0 + DAY]);
    // 40 items of them as written before the field: no version says when it ended.
    await withoutEndings(db, organizationId, "kept", 40);
    const keys = deriveKeys(newDataKey());

    const { result, figures } = await counted(() =>
      collectGarbage({
        scope: { organizationId, regionId: REGION },
        blobStore: new MemoryBlobStore(),
        keys: () => Promise.resolve(keys),
        now: new Date(T0 + 40 * DAY),
      }),
    );

    expect(result).toMatchObject({ outcome: "done", versionsPruned: 120, itemsRemoved: 0, liveChunks: 120 });
    expect(figures.getAlls).toBe(1);
    // 240 versions, the 40 old items' documents, and the few policy and resource documents.
    expect(figures.documents).toBeGreaterThanOrEqual(240 + 40);
    expect(figures.documents).toBeLessThanOrEqual(240 + 40 + 10);
    const items = await db.collection(`organizations/${organizationId}/resources/kept/items`).get();
    const left = await Promise.all(
      items.docs.map(async (item) => (await item.ref.collection("versions").get()).docs.map((doc) => doc.id)),
    );
    expect(left.flat().filter((id) => id.endsWith("@v0"))).toEqual([]);
    expect(left.flat()).toHaveLength(120);
  });

  test("when an item deleted at the source comes back with the same version, then that version is current again and outlives the retention, and one deleted for good ages out unless archived", async () => {
    const db = getFirestore("region-ch");
    const catalog = async (archiving: boolean) => {
      const organizationId = `org-gc-${randomBytes(5).toString("hex")}`;
      await organizationWithPolicy(db, organizationId, { retentionDays: 30, archiving });
      const scope = { organizationId, regionId: REGION } as const;
      const firestoreCatalog = new FirestoreCatalog(scope);
      await firestoreCatalog.writeVersions("kept", [version("back", "v0", T0), version("gone", "v0", T0)]);
      await firestoreCatalog.markDeleted("kept", ["back", "gone"], new Date(T0 + DAY).toISOString());
      await firestoreCatalog.writeVersions("kept", [version("back", "v0", T0 + 2 * DAY)]);
      const keys = deriveKeys(newDataKey());
      const result = await collectGarbage({
        scope,
        blobStore: new MemoryBlobStore(),
        keys: () => Promise.resolve(keys),
        now: new Date(T0 + 400 * DAY),
      });
      const items = await db.collection(`organizations/${organizationId}/resources/kept/items`).get();
      return { result, items: items.docs.map((doc) => doc.get("itemKey") as string).sort() };
    };

    expect(await catalog(false)).toEqual({
      result: expect.objectContaining({ versionsPruned: 1, itemsRemoved: 1 }) as unknown,
      items: ["back"],
    });
    expect(await catalog(true)).toEqual({
      result: expect.objectContaining({ versionsPruned: 0, itemsRemoved: 0 }) as unknown,
      items: ["back", "gone"],
    });
  });
});
