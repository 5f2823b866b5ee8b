import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CLIENT = join(__dirname, "fixtures", "stale-socket-client.cjs");

interface Scenario {
  outcome: "answered" | "failed";
  cause?: string;
}

/**
 * A keep-alive socket that the server closes while the client's event loop is blocked, then the client's
 * next request: on the same pool (`same`) or after a test environment's set-up (`fresh`).
 */
async function staleSocket(mode: "same" | "fresh"): Promise<Scenario> {
  const folder = mkdtempSync(join(tmpdir(), "alpvault-keep-alive-"));
  const closedMarker = join(folder, "closed");
  const server: Server = createServer((request, response) => {
    response.end("ok");
    if (request.url === "/close-idle") {
      response.on("finish", () =>
        setImmediate(() => {
          server.closeIdleConnections();
          writeFileSync(closedMarker, "");
        }),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [CLIENT, url, closedMarker, mode], (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    return JSON.parse(stdout) as Scenario;
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("the Node test environment's connection pool", () => {
  test("when a server closed a kept-alive socket while the loop was blocked, then the same pool reuses it and the request fails", async () => {
    const scenario = await staleSocket("same");
    expect(scenario).toMatchObject({ outcome: "failed", cause: "other side closed" });
  });

  test("when a test file's environment is set up after the close, then its first request is answered on a new connection", async () => {
    const scenario = await staleSocket("fresh");
    expect(scenario).toEqual({ outcome: "answered" });
  });
});
