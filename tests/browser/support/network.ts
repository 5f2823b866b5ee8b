/**
 * The browser's network in the browser tests: Chromium sends every request, loopback included, through a
 * forward proxy in the test's own process (`--proxy-server`, `--proxy-bypass-list=<-loopback>`), which
 * - answers the web app's API calls (`/v1` on the stack's Hosting and regional API ports) from the product
 *   run in the test's process when the file runs it there (tests/support/in-process/), and passes every
 *   other loopback request through to the stack (the web app from Hosting, the Auth emulator);
 * - serves the gapi stand-in at https://apis.google.com/js/api.js (the machine has no internet; Firebase
 *   Auth's popup sign-in loads it), over TLS with a test certificate Chromium is told to accept;
 * - refuses everything else that would leave the machine (Chromium's own service traffic too); what a page
 *   asked for beyond the machine is recorded by its context (browser.ts `NetworkLog`).
 * Unlike Playwright's request routing, a proxy leaves Chromium's HTTP cache on: a page loaded again takes
 * the web app's scripts from the cache, as a user's browser does.
 */
import { readFileSync } from "node:fs";
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import { servedUrl } from "../../support/regions";

const GAPI_HOST = "apis.google.com:443";
const GAPI_PATH = "/js/api.js";
const TLS = path.join(__dirname, "tls");
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

export interface BrowserNetwork {
  /** The proxy Chromium is launched with. */
  proxyServer: string;
  close(): Promise<void>;
}

/** Sends the proxied request to its target (or the API that serves it here) and pipes the answer back. */
function forward(agent: Agent, request: IncomingMessage, response: ServerResponse, target: URL): void {
  const headers: Record<string, string | string[] | undefined> = { ...request.headers, host: target.host };
  delete headers["proxy-connection"];
  delete headers["proxy-authorization"];
  const upstream = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers,
      agent,
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(response);
    },
  );
  upstream.on("error", (error) => {
    // Said in the test's output: a page that then misses a script fails for this reason, not a mystery.
    console.warn(`The browser's proxy could not reach ${target.href}: ${error.message}`);
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  request.pipe(upstream);
}

export async function startBrowserNetwork(gapiScript: string): Promise<BrowserNetwork> {
  // A connection per request, as loopback makes cheap: a kept-alive connection the server closes just as
  // it is reused would fail the request (Chromium retries that case itself; a proxy would answer 502).
  const agent = new Agent({ keepAlive: false });
  const gapi = createTlsServer(
    {
      key: readFileSync(path.join(TLS, "apis.google.com.key")),
      cert: readFileSync(path.join(TLS, "apis.google.com.crt")),
    },
    (request, response) => {
      if (new URL(request.url ?? "/", "https://apis.google.com").pathname !== GAPI_PATH) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(gapiScript);
    },
  );
  const proxy = createServer((request, response) => {
    let target: URL;
    try {
      target = new URL(request.url ?? "");
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (target.protocol !== "http:" || !LOOPBACK.test(target.hostname)) {
      response.writeHead(502).end();
      return;
    }
    const served = target.pathname.startsWith("/v1/") ? servedUrl(target.href) : target.href;
    forward(agent, request, response, new URL(served));
  });
  proxy.on("connect", (request: IncomingMessage, socket: Socket, head: Buffer) => {
    if (request.url !== GAPI_HOST) {
      socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      return;
    }
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) socket.unshift(head);
    gapi.emit("connection", socket);
  });
  proxy.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolvePromise) => proxy.listen(0, "127.0.0.1", resolvePromise));
  const { port } = proxy.address() as AddressInfo;
  return {
    proxyServer: `http://127.0.0.1:${port}`,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolvePromise) => proxy.close(() => resolvePromise()));
      gapi.close();
      agent.destroy();
    },
  };
}
