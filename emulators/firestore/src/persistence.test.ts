import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { deleteApp, initializeApp } from "firebase-admin/app";
import { FieldValue, GeoPoint, getFirestore, Timestamp } from "firebase-admin/firestore";

import { NodeFirestoreEmulator } from "./node-emulator";
import { loadStore, saveStore } from "./persistence";
import { Store, type StoredDocument } from "./store";
import type { Fields } from "./values";

const DATABASE = "projects/demo-alpvault/databases/(default)";

const everyType: Fields = {
  nothing: { null_value: 0 },
  yes: { boolean_value: true },
  no: { boolean_value: false },
  int: { integer_value: 42 },
  negativeInt: { integer_value: -9_007_199_254_740_991 },
  wholeDouble: { double_value: 2 },
  double: { double_value: 3.25 },
  nan: { double_value: NaN },
  infinity: { double_value: Infinity },
  minusInfinity: { double_value: -Infinity },
  minusZero: { double_value: -0 },
  text: { string_value: 'héllo 🌍 "quoted"\n' },
  bytes: { bytes_value: new Uint8Array([0, 1, 127, 128, 255]) },
  time: { timestamp_value: { seconds: 1_700_000_000, nanos: 123_456_789 } },
  epoch: { timestamp_value: { seconds: 0, nanos: 0 } },
  reference: { reference_value: `${DATABASE}/documents/users/u1` },
  place: { geo_point_value: { latitude: 46.948, longitude: 7.4474 } },
  list: {
    array_value: { values: [{ integer_value: 1 }, { string_value: "two" }, { array_value: { values: [] } }] },
  },
  map: {
    map_value: {
      fields: {
        "dotted.key": { integer_value: 1 },
        nested: { map_value: { fields: { deep: { null_value: 0 } } } },
      },
    },
  },
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "alpvault-firestore-"));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

test("when the store is saved and loaded again, then every value type, both time stamps and every database come back identical", async () => {
  const store = new Store();
  const document: StoredDocument = {
    path: "orgs/o1/items/special id %#?",
    fields: everyType,
    createTime: { seconds: 1_600_000_000, nanos: 1_000 },
    updateTime: { seconds: 1_700_000_000, nanos: 999_999_000 },
  };
  store.database(DATABASE).put(document);
  store.database("projects/demo-alpvault/databases/europe-west6").put({ ...document, path: "orgs/o2" });

  const files = await saveStore(store, dataDir);
  expect(files.map((f) => f.slice(dataDir.length))).toEqual([
    "/demo-alpvault/(default).json",
    "/demo-alpvault/europe-west6.json",
  ]);
  expect(await readdir(join(dataDir, "demo-alpvault"))).toHaveLength(2); // no temporary files left

  const reloaded = new Store();
  expect(await loadStore(reloaded, dataDir)).toBe(2);
  const back = reloaded.database(DATABASE).get(document.path);
  expect(back).toEqual(document);
  expect(Object.is((back!.fields.minusZero as { double_value: number }).double_value, -0)).toBe(true);
  expect(reloaded.database("projects/demo-alpvault/databases/europe-west6").get("orgs/o2")?.fields).toEqual(
    everyType,
  );

  // Integers and doubles stay distinguishable in the file.
  const json = await readFile(files[0]!, "utf8");
  expect(json).toContain('"int": {\n');
  expect(JSON.parse(json).documents[0].fields.int).toEqual({ integerValue: "42" });
  expect(JSON.parse(json).documents[0].fields.wholeDouble).toEqual({ doubleValue: 2 });
  expect(JSON.parse(json).documents[0].updateTime).toBe("2023-11-14T22:13:20.999999000Z");

  // Saving the reloaded store again produces the same bytes (deterministic output).
  const again = await mkdtemp(join(tmpdir(), "alpvault-firestore-"));
  try {
    const [copy] = await saveStore(reloaded, again);
    expect(await readFile(copy!, "utf8")).toBe(json);
  } finally {
    await rm(again, { recursive: true, force: true });
  }
});

test("when the emulator stops with save and restarts from the data directory, then clients read back what they wrote", async () => {
  const port = await freePort();
  const previousHost = process.env.FIRESTORE_EMULATOR_HOST;
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  const app = initializeApp({ projectId: "demo-alpvault" }, `persistence-${port}`);
  try {
    const first = new NodeFirestoreEmulator({ host: "127.0.0.1", port, dataDir });
    await first.start();
    const db = getFirestore(app);
    const regional = getFirestore(app, "europe-west6");
    const written = {
      int: 7,
      double: 1.5,
      text: "Grüezi",
      when: new Timestamp(1_700_000_000, 5_000),
      where: new GeoPoint(46.2, 6.15),
      bytes: Buffer.from("alpvault"),
      ref: db.doc("orgs/o1"),
      nested: { list: [1, { a: null }], flag: true },
    };
    await db.doc("orgs/o1/items/i1").set(written);
    await db.doc("orgs/o1/items/i1").update({ double: FieldValue.increment(0.5) }); // the double 2.0
    await regional.doc("orgs/o1").set({ region: "europe-west6" });
    const before = await db.doc("orgs/o1/items/i1").get();
    await first.stop({ save: true });

    const second = new NodeFirestoreEmulator({ host: "127.0.0.1", port, dataDir });
    await second.start();
    try {
      const after = await db.doc("orgs/o1/items/i1").get();
      expect(after.data()).toEqual({
        ...written,
        double: 2,
        bytes: expect.anything(),
        ref: expect.anything(),
      });
      const bytes: unknown = after.get("bytes");
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(bytes instanceof Uint8Array ? bytes : []).toString()).toBe("alpvault");
      expect(after.get("ref").path).toBe("orgs/o1");
      expect(after.createTime!.isEqual(before.createTime!)).toBe(true);
      expect(after.updateTime!.isEqual(before.updateTime!)).toBe(true);
      expect(second.store.database(DATABASE).get("orgs/o1/items/i1")!.fields.double).toEqual({
        double_value: 2,
      });
      expect(second.store.database(DATABASE).get("orgs/o1/items/i1")!.fields.int).toEqual({
        integer_value: 7,
      });
      expect((await regional.doc("orgs/o1").get()).get("region")).toBe("europe-west6");
      expect((await db.doc("orgs/o1").get()).exists).toBe(false);
    } finally {
      await second.stop();
    }
  } finally {
    await deleteApp(app);
    if (previousHost === undefined) delete process.env.FIRESTORE_EMULATOR_HOST;
    else process.env.FIRESTORE_EMULATOR_HOST = previousHost;
  }
}, 30_000);
