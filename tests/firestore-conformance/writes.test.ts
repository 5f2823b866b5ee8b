/**
 * Writes: set / merge / create / update / delete, preconditions, field transforms and value types,
 * as documented in https://firebase.google.com/docs/firestore/manage-data/add-data and the
 * Firestore v1 API reference (Write, Precondition, DocumentTransform).
 */
import { FieldPath, FieldValue, GeoPoint, Timestamp } from "firebase-admin/firestore";

import { closeFirestore, firestore, rejectionCode, Status, uniqueId } from "./support";

const db = firestore();
const collection = (name: string) => db.collection(uniqueId(name));

afterAll(closeFirestore);

describe("set", () => {
  test("when set() is called without merge on an existing document, then the document is replaced entirely", async () => {
    const ref = collection("set-replace").doc("d");
    await ref.set({ a: 1, b: { c: 2, d: 3 } });
    await ref.set({ b: { c: 5 } });
    expect((await ref.get()).data()).toEqual({ b: { c: 5 } });
  });

  test("when set() is called with merge, then only the given fields change and nested maps are merged", async () => {
    const ref = collection("set-merge").doc("d");
    await ref.set({ a: 1, b: { c: 2, d: 3 } });
    await ref.set({ b: { c: 5 }, e: true }, { merge: true });
    expect((await ref.get()).data()).toEqual({ a: 1, b: { c: 5, d: 3 }, e: true });
  });

  test("when set() is called with mergeFields, then only the listed field paths are written", async () => {
    const ref = collection("set-merge-fields").doc("d");
    await ref.set({ a: 1, b: { c: 2, d: 3 } });
    await ref.set({ a: 9, b: { c: 7, d: 8 } }, { mergeFields: ["b.c"] });
    expect((await ref.get()).data()).toEqual({ a: 1, b: { c: 7, d: 3 } });
  });

  test("when set() with merge contains FieldValue.delete(), then that field is removed", async () => {
    const ref = collection("set-merge-delete").doc("d");
    await ref.set({ a: 1, b: 2, nested: { x: 1, y: 2 } });
    await ref.set({ b: FieldValue.delete(), nested: { y: FieldValue.delete() } }, { merge: true });
    expect((await ref.get()).data()).toEqual({ a: 1, nested: { x: 1 } });
  });
});

describe("create, update and delete", () => {
  test("when create() targets an existing document, then it fails with ALREADY_EXISTS and the document is unchanged", async () => {
    const ref = collection("create-existing").doc("d");
    await ref.create({ v: 1 });
    expect(await rejectionCode(ref.create({ v: 2 }))).toBe(Status.ALREADY_EXISTS);
    expect((await ref.get()).data()).toEqual({ v: 1 });
  });

  test("when update() targets a missing document, then it fails with NOT_FOUND and nothing is created", async () => {
    const ref = collection("update-missing").doc("d");
    expect(await rejectionCode(ref.update({ v: 1 }))).toBe(Status.NOT_FOUND);
    expect((await ref.get()).exists).toBe(false);
  });

  test("when update() uses dotted field paths, then only the nested fields change", async () => {
    const ref = collection("update-nested").doc("d");
    await ref.set({ profile: { name: "Ann", address: { city: "Bern", zip: "3000" } }, other: 1 });
    await ref.update({ "profile.address.city": "Sion", "profile.age": 40 });
    expect((await ref.get()).data()).toEqual({
      profile: { name: "Ann", age: 40, address: { city: "Sion", zip: "3000" } },
      other: 1,
    });
  });

  test("when update() uses a FieldPath with dots inside a segment, then the literal key is written", async () => {
    const ref = collection("update-fieldpath").doc("d");
    await ref.set({ a: 1 });
    await ref.update(new FieldPath("example.com", "visits"), 3);
    expect((await ref.get()).get(new FieldPath("example.com", "visits"))).toBe(3);
    expect((await ref.get()).data()).toEqual({ a: 1, "example.com": { visits: 3 } });
  });

  test("when update() sets a field to FieldValue.delete(), then the field (top-level or nested) is removed", async () => {
    const ref = collection("update-delete").doc("d");
    await ref.set({ a: 1, b: 2, nested: { x: 1, y: 2 } });
    await ref.update({ b: FieldValue.delete(), "nested.x": FieldValue.delete() });
    expect((await ref.get()).data()).toEqual({ a: 1, nested: { y: 2 } });
  });

  test("when delete() targets a missing document, then it succeeds; with exists:true it fails with NOT_FOUND", async () => {
    const ref = collection("delete-missing").doc("d");
    await expect(ref.delete()).resolves.toBeDefined();
    expect(await rejectionCode(ref.delete({ exists: true }))).toBe(Status.NOT_FOUND);
  });

  test("when a document id is longer than 1,500 bytes, then a write and a read of it fail with INVALID_ARGUMENT; 1,500 bytes is allowed", async () => {
    const longest = collection("id-length").doc("é".repeat(750));
    await longest.set({ a: 1 });
    expect((await longest.get()).data()).toEqual({ a: 1 });
    const tooLong = collection("id-length").doc(`${"é".repeat(750)}x`);
    expect(await rejectionCode(tooLong.set({ a: 1 }))).toBe(Status.INVALID_ARGUMENT);
    expect(await rejectionCode(tooLong.get())).toBe(Status.INVALID_ARGUMENT);
  });

  test("when a document is deleted, then get() reports it missing", async () => {
    const ref = collection("delete").doc("d");
    await ref.set({ a: 1 });
    await ref.delete();
    const snapshot = await ref.get();
    expect(snapshot.exists).toBe(false);
    expect(snapshot.data()).toBeUndefined();
  });
});

describe("preconditions and timestamps", () => {
  test("when update() carries lastUpdateTime equal to the document's update time, then it succeeds", async () => {
    const ref = collection("precondition-ok").doc("d");
    const written = await ref.set({ v: 1 });
    await ref.update({ v: 2 }, { lastUpdateTime: written.writeTime });
    expect((await ref.get()).get("v")).toBe(2);
  });

  test("when update() carries a stale lastUpdateTime, then it fails with FAILED_PRECONDITION", async () => {
    const ref = collection("precondition-stale").doc("d");
    const first = await ref.set({ v: 1 });
    await ref.update({ v: 2 });
    expect(await rejectionCode(ref.update({ v: 3 }, { lastUpdateTime: first.writeTime }))).toBe(
      Status.FAILED_PRECONDITION,
    );
    expect((await ref.get()).get("v")).toBe(2);
  });

  test("when a document is updated, then createTime stays and updateTime advances", async () => {
    const ref = collection("times").doc("d");
    await ref.set({ v: 1 });
    const before = await ref.get();
    await ref.update({ v: 2 });
    const after = await ref.get();
    expect(after.createTime!.isEqual(before.createTime!)).toBe(true);
    // Timestamp.valueOf() is a string that sorts chronologically.
    expect(after.updateTime!.valueOf() > before.updateTime!.valueOf()).toBe(true);
  });

  test("when a field is FieldValue.serverTimestamp(), then it holds the commit time of the write", async () => {
    const ref = collection("server-time").doc("d");
    const before = Date.now();
    const result = await ref.set({
      at: FieldValue.serverTimestamp(),
      nested: { at: FieldValue.serverTimestamp() },
    });
    const snapshot = await ref.get();
    const at = snapshot.get("at") as Timestamp;
    expect(at).toBeInstanceOf(Timestamp);
    expect(at.isEqual(result.writeTime)).toBe(true);
    expect((snapshot.get("nested.at") as Timestamp).isEqual(at)).toBe(true);
    expect(at.toMillis()).toBeGreaterThanOrEqual(before - 60_000);
  });
});

describe("field transforms", () => {
  test("when FieldValue.increment() is applied, then integers stay integers, doubles add, and a missing field starts from the operand", async () => {
    const ref = collection("increment").doc("d");
    await ref.set({ count: 1, ratio: 0.5, nested: { n: 10 } });
    await ref.update({
      count: FieldValue.increment(2),
      ratio: FieldValue.increment(0.25),
      fresh: FieldValue.increment(7),
      "nested.n": FieldValue.increment(-3),
    });
    expect((await ref.get()).data()).toEqual({ count: 3, ratio: 0.75, fresh: 7, nested: { n: 7 } });
  });

  test("when FieldValue.increment() targets a non-numeric field, then the field becomes the operand", async () => {
    const ref = collection("increment-string").doc("d");
    await ref.set({ v: "text" });
    await ref.update({ v: FieldValue.increment(5) });
    expect((await ref.get()).get("v")).toBe(5);
  });

  test("when arrayUnion() is applied, then only elements not already present are appended, in order", async () => {
    const ref = collection("array-union").doc("d");
    await ref.set({ tags: ["a", "b"] });
    await ref.update({ tags: FieldValue.arrayUnion("b", "c", "c", "d"), fresh: FieldValue.arrayUnion(1, 1) });
    expect((await ref.get()).data()).toEqual({ tags: ["a", "b", "c", "d"], fresh: [1] });
  });

  test("when arrayRemove() is applied, then every equal element is removed (maps compared by value)", async () => {
    const ref = collection("array-remove").doc("d");
    await ref.set({ items: [1, { k: "x" }, 2, 1, { k: "y" }] });
    await ref.update({ items: FieldValue.arrayRemove(1, { k: "x" }), missing: FieldValue.arrayRemove(1) });
    expect((await ref.get()).data()).toEqual({ items: [2, { k: "y" }], missing: [] });
  });
});

describe("values and ids", () => {
  test("when every value type is written, then reading it back yields equal values", async () => {
    const target = db.collection("somewhere").doc("else");
    const ref = collection("types").doc("d");
    const data = {
      nul: null,
      yes: true,
      int: 42,
      big: 2 ** 52,
      neg: -7,
      dbl: 3.25,
      str: "héllo 🌍",
      empty: "",
      bytes: Buffer.from([0, 1, 2, 255]),
      time: new Timestamp(1_700_000_000, 123_456_000),
      geo: new GeoPoint(46.95, 7.45),
      ref: target,
      arr: [1, "two", [3], { four: 4 }],
      map: { deep: { deeper: { deepest: "x" } }, list: [] as unknown[] },
    };
    await ref.set(data);
    const read = (await ref.get()).data()!;
    expect(read.nul).toBeNull();
    expect(read.yes).toBe(true);
    expect(read.int).toBe(42);
    expect(read.big).toBe(2 ** 52);
    expect(read.neg).toBe(-7);
    expect(read.dbl).toBe(3.25);
    expect(read.str).toBe("héllo 🌍");
    expect(read.empty).toBe("");
    expect(Buffer.from(read.bytes as Uint8Array).equals(data.bytes)).toBe(true);
    expect((read.time as Timestamp).isEqual(data.time)).toBe(true);
    expect((read.geo as GeoPoint).isEqual(data.geo)).toBe(true);
    expect(read.ref.path).toBe(target.path);
    expect(read.arr).toEqual(data.arr);
    expect(read.map).toEqual(data.map);
  });

  test("when document ids contain spaces, unicode, %, #, ?, + and dots, then they round-trip and list under their collection", async () => {
    const col = collection("special-ids");
    const names = ["with space", "üñïçødé-日本", "100%", "a#b", "what?", "a+b", "dots.in.id"];
    await Promise.all(names.map((id) => col.doc(id).set({ id })));
    for (const id of names) expect((await col.doc(id).get()).get("id")).toBe(id);
    const listed = (await col.get()).docs.map((d) => d.id).sort();
    expect(listed).toEqual([...names].sort());
  });

  test("when getAll() is called, then it returns one snapshot per reference in request order, missing ones not existing", async () => {
    const col = collection("get-all");
    await col.doc("a").set({ v: 1 });
    await col.doc("c").set({ v: 3 });
    const snapshots = await db.getAll(col.doc("c"), col.doc("b"), col.doc("a"));
    expect(snapshots.map((s) => [s.id, s.exists, s.get("v")])).toEqual([
      ["c", true, 3],
      ["b", false, undefined],
      ["a", true, 1],
    ]);
  });

  test("when getAll() is given a fieldMask, then only the masked fields are returned", async () => {
    const col = collection("get-all-mask");
    await col.doc("a").set({ keep: 1, drop: 2, nested: { keep: 3, drop: 4 } });
    const [snapshot] = await db.getAll(col.doc("a"), { fieldMask: ["keep", "nested.keep"] });
    expect(snapshot!.data()).toEqual({ keep: 1, nested: { keep: 3 } });
  });

  test("when a batch contains a failing write, then none of its writes are applied (batches are atomic)", async () => {
    const col = collection("batch-atomic");
    await col.doc("exists").set({ v: 1 });
    const batch = db.batch();
    batch.set(col.doc("new"), { v: 1 });
    batch.update(col.doc("exists"), { v: 2 });
    batch.create(col.doc("exists"), { v: 3 });
    expect(await rejectionCode(batch.commit())).toBe(Status.ALREADY_EXISTS);
    expect((await col.doc("new").get()).exists).toBe(false);
    expect((await col.doc("exists").get()).get("v")).toBe(1);
  });
});
