/**
 * The product's APIs served by the test's own process: the global API and each region's, built exactly as
 * deployed (`productApi`: production's identity and App Check checks, routes, error middleware), each on a
 * loopback port of its own. Only the transport differs from the stack (no Hosting, no Functions runtime).
 */
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { REGION_IDS } from "@alpvault/contracts/regions";
import { productApi } from "../../../functions/src/api";
import type { ApiHost } from "../regions";

export interface ServedApis {
  origins: Record<ApiHost, string>;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolvePromise(`http://127.0.0.1:${port}`);
    });
  });
}

export async function serveApis(): Promise<ServedApis> {
  const hosts: ApiHost[] = ["global", ...REGION_IDS];
  const servers = hosts.map((host) => createServer(productApi(host === "global" ? null : host)));
  const origins = await Promise.all(servers.map(listen));
  return {
    origins: Object.fromEntries(hosts.map((host, index) => [host, origins[index]!])) as Record<
      ApiHost,
      string
    >,
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolvePromise) => {
              server.closeAllConnections();
              server.close(() => resolvePromise());
            }),
        ),
      );
    },
  };
}
