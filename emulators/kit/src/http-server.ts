/**
 * The HTTP server every emulator listens with: an Express application whose one handler is the emulator's
 * own dispatcher, so each emulator keeps Google's exact paths, status codes, headers and bodies (Express adds
 * no header of its own: `x-powered-by` is off and nothing else answers).
 *
 * The port is bound first and the dispatcher attached later (`serve`): an emulator that needs its own URL
 * to build itself starts listening, then serves; until then connections are refused by a reset.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import express from "express";

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

export interface HttpServer {
  /** `http://host:port` */
  url: string;
  host: string;
  port: number;
  /** Starts answering with this dispatcher. */
  serve(handler: RequestHandler): void;
  /** Stops listening and drops every open connection (keep-alive ones too). */
  close(): Promise<void>;
}

export interface ListenOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
}

/** Keep-alive sockets outlive the client's (Google's front ends keep them for minutes). */
const KEEP_ALIVE_MS = 65_000;

export async function listen(options: ListenOptions): Promise<HttpServer> {
  const host = options.host ?? "127.0.0.1";
  let dispatch: RequestHandler | undefined;
  const app = express();
  app.disable("x-powered-by");
  // The dispatcher's promise is returned to Express, which answers a rejection with 500 (an unhandled
  // rejection would end the emulator's process).
  app.use((request, response) => {
    if (dispatch) return dispatch(request, response);
    response.destroy();
  });
  const server: Server = createServer(app);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    host,
    port,
    serve: (handler) => {
      dispatch = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
