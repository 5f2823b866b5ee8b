/**
 * The read figures over HTTP, for tests in another process than the emulator (the official emulator keeps
 * its REST endpoints under `/emulator/v1/…`; ours are on a port of their own, as ours speaks only gRPC on
 * the Firestore port):
 *   GET  /emulator/v1/stats        → 200 ReadStatsSnapshot as JSON (totals and the last requests)
 *   POST /emulator/v1/stats:reset  → 200 {} (counts start again)
 * Anything else answers 404. The figures name databases and RPCs only, never documents or values.
 */
import { createServer, type Server } from "node:http";

import type { ReadStats } from "./stats";

export async function startStatsServer(stats: ReadStats, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const path = (request.url ?? "").split("?")[0];
    if (request.method === "GET" && path === "/emulator/v1/stats") return reply(200, stats.snapshot());
    if (request.method === "POST" && path === "/emulator/v1/stats:reset") {
      stats.reset();
      return reply(200, {});
    }
    return reply(404, { error: { code: 404, message: "Not found." } });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port, exclusive: true }, () => resolve());
  });
  return server;
}
