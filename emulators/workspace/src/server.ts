/**
 * The Workspace emulator's server: Google Directory, Gmail, Drive and OAuth for local work and tests.
 *
 * This is the slot the local stack starts on its fixed port. The Google APIs themselves are not served yet:
 * every API path answers the way Google answers an unknown method (404 with Google's error body), so a
 * client pointed here fails clearly instead of hanging.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface RunningWorkspaceEmulator {
  url: string;
  stop(): Promise<void>;
}

function googleError(response: ServerResponse, code: number, message: string, status: string): void {
  response.writeHead(code, { "content-type": "application/json; charset=UTF-8" });
  response.end(
    JSON.stringify({
      error: { code, message, errors: [{ message, domain: "global", reason: "notFound" }], status },
    }),
  );
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const path = (request.url ?? "/").split("?")[0];
  if (request.method === "GET" && path === "/") {
    response.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
    response.end(JSON.stringify({ emulator: "workspace", apis: [] }));
    return;
  }
  googleError(response, 404, `Method not found: ${request.method ?? "GET"} ${path}`, "NOT_FOUND");
}

export async function startWorkspaceEmulator(options: {
  port: number;
  host?: string;
}): Promise<RunningWorkspaceEmulator> {
  const host = options.host ?? "127.0.0.1";
  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    url: `http://${host}:${options.port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
