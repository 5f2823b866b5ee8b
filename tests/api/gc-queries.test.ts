/**
 * What the garbage collector's walk over the catalog costs on the stack's Firestore: its versions are read
 * by collection group, page after page, so the number of queries does not grow with the number of items
 * (one query per item would), and the documents read are the versions plus the states of the items
 * retention applies to. Another organisation whose id starts with this one's is never read nor touched.
 */
import { randomBytes } from "node:crypto";
import { getApps, initializeApp } from "firebase-admin/app";
import { Firestore, Query, getFirestore, type QuerySnapshot } from "firebase-admin/firestore";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { collectGarbage } from "../../functions/src/backups/retention/gc";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { FirestoreCatalog } from "../../functions/src/backups/catalog/repo";
import { stackEnv } from "../support/stack-env";

jest.setTimeout(120_000);

if (getApps().length === 0) initializeApp({ projectId: stackEnv.projectId });

const DAY = 24 * 3600 * 1000;
const T0 = Date.parse("2026-09-01T10:00:00.000Z");
const REGION = "ch" as const;

function version(itemKey: string, versionKey: string, at: number): CatalogVersion {
  return {
    versionId: `${itemKey}@${versionKey}`,
    itemKey,
    kind: "gmail-message",
    versionKey,
    contentKey: `${itemKey}-${versionKey}`,
    capturedAt: new Date(at).toISOString(),
    runId: `run-${versionKey}`,
    size: 10,
    storedBytes: 10,
    contentDigest: "0".repeat(64),
    dataKeyId: "dk-1",
    metadata: {},
    search: { subject: itemKey },
    formatVersion: 1,
    chunks: [{ id: `${itemKey}-${versionKey}`.padEnd(64, "0"), size: 10 }],
  } as unknown as CatalogVersion;
}

/** Items of one resource, each with versions captured at these times (one write call per 100 items). */
async function writeItems(organizationId: string, resourceId: string, count: number, times: number[]) {
  const catalog = new FirestoreCatalog({ organizationId, regionId: REGION });
  for (let start = 0; start < count; start += 100) {
    const versions: CatalogVersion[] = [];
    for (let index = start; index < Math.min(count, start + 100); index += 1) {
      times.forEach((at, n) => versions.push(version(`m${String(index).padStart(5, "0")}`, `v${n}`, at)));
    }
    await catalog.writeVersions(resourceId, versions);
  }
}

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
    const organization = db.collection("organizations").doc(organizationId);
    await organization
      .collection("policies")
      .doc("p")
      .set({
        name: "Month",
        dataTypes: ["emails"],
        frequency: 1,
        schedule: "every-day",
        days: [],
        retentionDays: 30,
        archiving: false,
      });
    await organization
      .collection("resources")
      .doc("kept")
      .set({ type: "email", name: "kept", policyId: "p" });
    await organization.collection("resources").doc("free").set({ type: "email", name: "free" });
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
    // The states of the items under a policy, one getAll per page of versions.
    expect(figures.getAlls).toBeLessThanOrEqual(3);
    // 860 versions, 330 item states, and the few policy, resource and run documents.
    expect(figures.documents).toBeLessThanOrEqual(860 + 330 + 10);
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
});
