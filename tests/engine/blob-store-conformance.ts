/**
 * The one conformance suite every BlobStore passes (docs/backup-format.md §3: objects written once, read
 * whole or in ranges, listed by prefix, deleted by the GC). `describeBlobStore(name, makeStore)` registers
 * it for one implementation; the fixture says how to make that store unavailable.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import {
  BlobStoreError,
  type BlobStore,
  type BlobStoreErrorKind,
} from "../../functions/src/engine/blobstore/blob-store";

export interface BlobStoreFixture {
  store: BlobStore;
  /** The next `count` calls to the store fail: a server error, or the connection reset. */
  makeUnavailable(count: number, how: "error" | "reset"): Promise<void>;
  /** Ends an outage early. */
  recover(): Promise<void>;
  close(): Promise<void>;
}

const MIB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function failure(promise: Promise<unknown>): Promise<BlobStoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BlobStoreError) return error;
    throw new Error(`expected a BlobStoreError, got ${String(error)}`);
  }
  throw new Error("expected the call to fail");
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function describeBlobStore(name: string, makeStore: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore conformance: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;
    let counter = 0;
    /** A fresh prefix per test, so tests never see each other's objects. */
    const fresh = (): string => `o/test-${Date.now().toString(36)}-${(counter += 1)}/`;

    beforeAll(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });

    afterAll(async () => {
      await fixture?.close();
    });

    afterEach(async () => {
      await fixture.recover();
    });

    test("when an object is written, then it reads back byte for byte and exists", async () => {
      const key = `${fresh()}c/ab/chunk`;
      const body = randomBytes(70_000);
      expect(await store.exists(key)).toBe(false);
      expect(await store.putIfAbsent(key, body)).toBe(true);
      expect(await store.exists(key)).toBe(true);
      expect((await store.get(key)).equals(body)).toBe(true);
    });

    test("when an object is written a second time, then the put answers false and the first content stays", async () => {
      const key = `${fresh()}chunk`;
      const first = Buffer.from("first content");
      expect(await store.putIfAbsent(key, first)).toBe(true);
      expect(await store.putIfAbsent(key, Buffer.from("second, different content"))).toBe(false);
      expect(await store.putIfAbsent(key, first)).toBe(false);
      expect((await store.get(key)).toString()).toBe("first content");
    });

    test("when an empty object is written, then it reads back empty", async () => {
      const key = `${fresh()}empty`;
      expect(await store.putIfAbsent(key, Buffer.alloc(0))).toBe(true);
      expect((await store.get(key)).length).toBe(0);
      expect((await readAll(store.createReadStream(key))).length).toBe(0);
    });

    test("when ranges are read, then exactly those bytes come back, cut at the end of the object", async () => {
      const key = `${fresh()}ranged`;
      const body = randomBytes(10_000);
      await store.putIfAbsent(key, body);
      expect((await store.get(key, { offset: 0, length: 1 })).equals(body.subarray(0, 1))).toBe(true);
      expect((await store.get(key, { offset: 1234, length: 4321 })).equals(body.subarray(1234, 5555))).toBe(
        true,
      );
      expect((await store.get(key, { offset: 9000 })).equals(body.subarray(9000))).toBe(true);
      expect((await store.get(key, { offset: 9999, length: 50 })).equals(body.subarray(9999))).toBe(true);
    });

    test("when a range starts past the end or is malformed, then the read fails as invalid", async () => {
      const key = `${fresh()}short`;
      await store.putIfAbsent(key, Buffer.from("0123456789"));
      expect((await failure(store.get(key, { offset: 10 }))).kind).toBe("invalid");
      expect((await failure(store.get(key, { offset: -1 }))).kind).toBe("invalid");
      expect((await failure(store.get(key, { offset: 0, length: 0 }))).kind).toBe("invalid");
    });

    test("when an object is streamed, then the stream yields its bytes, whole or a range", async () => {
      const key = `${fresh()}streamed`;
      const body = randomBytes(300_000);
      await store.putIfAbsent(key, body);
      expect((await readAll(store.createReadStream(key))).equals(body)).toBe(true);
      const part = await readAll(store.createReadStream(key, { offset: 100_000, length: 65_536 }));
      expect(part.equals(body.subarray(100_000, 165_536))).toBe(true);
    });

    test("when a missing object is read, streamed or checked, then not-found (and exists is false)", async () => {
      const key = `${fresh()}missing`;
      expect((await failure(store.get(key))).kind).toBe("not-found");
      expect((await failure(store.get(key, { offset: 0, length: 10 }))).kind).toBe("not-found");
      expect((await failure(readAll(store.createReadStream(key)))).kind).toBe("not-found");
      expect(await store.exists(key)).toBe(false);
    });

    test("when names are invalid, then the calls fail as invalid", async () => {
      const kinds: BlobStoreErrorKind[] = [];
      for (const bad of ["", "a\nb", "x".repeat(1025)]) {
        kinds.push((await failure(store.putIfAbsent(bad, Buffer.from("x")))).kind);
        kinds.push((await failure(store.get(bad))).kind);
      }
      expect(kinds.every((kind) => kind === "invalid")).toBe(true);
    });

    test("when a prefix holds more names than one page, then the pages list each of them once, in order, and nothing else", async () => {
      const prefix = fresh();
      const names = Array.from(
        { length: 23 },
        (_, index) => `${prefix}c/${(index * 7919).toString(16).padStart(5, "0")}`,
      );
      names.push(`${prefix}m/manifest`);
      await Promise.all(names.map((key) => store.putIfAbsent(key, Buffer.from(key))));
      // Neighbours that share the start of the prefix but are outside it.
      await store.putIfAbsent(`${prefix.slice(0, -1)}-other/c/1`, Buffer.from("x"));
      await store.putIfAbsent(`${prefix}`.replace(/\/$/, ".txt"), Buffer.from("x"));

      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = await store.list(prefix, { maxResults: 5, pageToken });
        expect(page.names.length).toBeLessThanOrEqual(5);
        seen.push(...page.names);
        pageToken = page.nextPageToken;
        pages += 1;
      } while (pageToken);
      expect(pages).toBe(5);
      expect(seen).toEqual([...names].sort());

      const under = await store.list(`${prefix}c/`, { maxResults: 1000 });
      expect(under.names).toEqual(names.filter((key) => key.startsWith(`${prefix}c/`)).sort());
      expect(under.nextPageToken).toBeUndefined();
      expect((await store.list(`${prefix}nothing/`)).names).toEqual([]);
    });

    test("when an object is deleted, then it is gone, a second delete is fine, and the name can be written again", async () => {
      const key = `${fresh()}doomed`;
      const keep = `${fresh()}kept`;
      await store.putIfAbsent(key, Buffer.from("old"));
      await store.putIfAbsent(keep, Buffer.from("kept"));
      await store.delete(key);
      expect(await store.exists(key)).toBe(false);
      expect((await failure(store.get(key))).kind).toBe("not-found");
      await store.delete(key);
      await store.delete(`${fresh()}never-written`);
      expect((await store.get(keep)).toString()).toBe("kept");
      expect(await store.putIfAbsent(key, Buffer.from("new"))).toBe(true);
      expect((await store.get(key)).toString()).toBe("new");
    });

    test("when an object is larger than 8 MiB, then it is written once and reads back identical", async () => {
      const key = `${fresh()}large`;
      const body = Buffer.concat([randomBytes(4 * MIB), Buffer.alloc(4 * MIB, 7), randomBytes(MIB + 123)]);
      expect(await store.putIfAbsent(key, body)).toBe(true);
      expect(await store.putIfAbsent(key, Buffer.from("smaller"))).toBe(false);
      expect(sha256(await store.get(key))).toBe(sha256(body));
      expect(sha256(await readAll(store.createReadStream(key)))).toBe(sha256(body));
      const tail = await store.get(key, { offset: 8 * MIB, length: MIB });
      expect(tail.equals(body.subarray(8 * MIB, 9 * MIB))).toBe(true);
    });

    test.each(["error", "reset"] as const)(
      "when the store is unavailable (%s), then every call fails as unavailable and nothing is half written",
      async (how) => {
        const key = `${fresh()}outage`;
        const present = `${fresh()}present`;
        await store.putIfAbsent(present, Buffer.from("here before"));
        await fixture.makeUnavailable(1000, how);
        const kinds = [
          (await failure(store.putIfAbsent(key, Buffer.from("during")))).kind,
          (await failure(store.get(present))).kind,
          (await failure(readAll(store.createReadStream(present)))).kind,
          (await failure(store.exists(present))).kind,
          (await failure(store.list("o/"))).kind,
          (await failure(store.delete(present))).kind,
        ];
        expect(kinds).toEqual(Array(6).fill("unavailable"));
        await fixture.recover();
        expect(await store.exists(key)).toBe(false);
        expect((await store.get(present)).toString()).toBe("here before");
        expect(await store.putIfAbsent(key, Buffer.from("after"))).toBe(true);
      },
    );
  });
}
