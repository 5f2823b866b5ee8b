/**
 * The emulator kit: the server answers only through the emulator's dispatcher (and adds no header of its
 * own), snapshots round-trip through their file, and fault rules keep their ids, order and matching.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FaultRules, SnapshotFile, listen, matchesOperation } from "./index";

function get(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    call.on("error", reject);
    call.end();
  });
}

describe("listen", () => {
  it("when no dispatcher is served yet, then connections are reset", async () => {
    const server = await listen({ port: 0 });
    try {
      await expect(get(`${server.url}/any`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it("when a dispatcher is served, then it alone writes the answer", async () => {
    const server = await listen({ port: 0 });
    server.serve((incoming, response) => {
      response.writeHead(418, { "content-type": "text/plain" });
      response.end(`${incoming.method} ${incoming.url}`);
    });
    try {
      const answer = await get(`${server.url}/v1/things:verb?x=1`);
      expect(answer.status).toBe(418);
      expect(answer.body).toBe("GET /v1/things:verb?x=1");
      expect(Object.keys(answer.headers).sort()).toEqual(
        ["connection", "content-type", "date", "keep-alive", "transfer-encoding"].sort(),
      );
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    } finally {
      await server.close();
    }
  });

  it("when the dispatcher fails, then the request is answered 500 and the next one is served", async () => {
    const server = await listen({ port: 0 });
    let failing = true;
    server.serve(async (_incoming, response) => {
      if (failing) throw new Error("The dispatcher failed");
      response.end("served");
    });
    try {
      expect((await get(`${server.url}/first`)).status).toBe(500);
      failing = false;
      expect((await get(`${server.url}/second`)).body).toBe("served");
    } finally {
      await server.close();
    }
  });
});

describe("SnapshotFile", () => {
  it("when a snapshot is saved, then it loads back and an empty one removes the file", () => {
    const folder = mkdtempSync(join(tmpdir(), "emulator-kit-"));
    try {
      const file = new SnapshotFile<{ items: string[] }>(join(folder, "state", "state.json.gz"));
      expect(file.load()).toBeUndefined();
      file.save({ items: ["a", "b"] });
      expect(file.load()).toEqual({ items: ["a", "b"] });
      expect(statSync(file.path).mode & 0o777).toBe(0o600);
      expect(existsSync(`${file.path}.tmp`)).toBe(false);
      file.save(undefined);
      expect(existsSync(file.path)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("fault rules", () => {
  it("when rules are added and removed, then they keep their ids and order", () => {
    const rules = new FaultRules<{ id: string; operation: string }>();
    const first = rules.add((id) => ({ id, operation: "a.*" }));
    rules.add((id) => ({ id, operation: "*" }));
    expect(rules.list()).toEqual([
      { id: "fault-1", operation: "a.*" },
      { id: "fault-2", operation: "*" },
    ]);
    expect(rules.remove(first.id)).toBe(true);
    expect(rules.remove(first.id)).toBe(false);
    rules.clear();
    expect(rules.add((id) => ({ id, operation: "b" })).id).toBe("fault-3");
  });

  it("when operations are matched, then * is all, family.* a family and anything else one id", () => {
    expect(matchesOperation("*", "storage.objects.get")).toBe(true);
    expect(matchesOperation("storage.objects.*", "storage.objects.get")).toBe(true);
    expect(matchesOperation("storage.objects.*", "storage.buckets.get")).toBe(false);
    expect(matchesOperation("storage.objects.get", "storage.objects.get")).toBe(true);
    expect(matchesOperation("storage.objects.get", "storage.objects.getx")).toBe(false);
  });
});
