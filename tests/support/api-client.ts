/** Calls the /v1 API through Hosting, as the web app does (ID token + App Check header). */
import { APP_CHECK_HEADER, mintUnsignedAppCheckToken } from "@alpvault/contracts/app-check";
import { LOCAL_WEB_APP_ID } from "@alpvault/contracts/local";
import { apiOrigin, hostFor, type ApiHost } from "./regions";
import { stackEnv } from "./stack-env";

export function appCheckToken(
  overrides: { appId?: string; projectId?: string; nowSeconds?: number } = {},
): string {
  return mintUnsignedAppCheckToken({
    appId: overrides.appId ?? LOCAL_WEB_APP_ID,
    projectId: overrides.projectId ?? stackEnv.projectId,
    nowSeconds: overrides.nowSeconds ?? Math.floor(Date.now() / 1000),
  }).token;
}

export interface ApiAnswer {
  status: number;
  contentType: string | null;
  body: unknown;
  /** The body's bytes as sent (downloads). */
  bytes: Buffer;
}

/**
 * Calls `/v1<path>` on the API that serves it (see regions.ts: an organisation's calls go to its region's
 * host), or on `options.host` when a test aims at a particular one.
 */
export async function callApi(
  path: string,
  options: {
    idToken?: string;
    appCheck?: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    host?: ApiHost;
  } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.idToken !== undefined) headers.authorization = `Bearer ${options.idToken}`;
  if (options.appCheck !== undefined) headers[APP_CHECK_HEADER] = options.appCheck;
  const host = options.host ?? (await hostFor(path, options.method ?? "GET", options.body));
  const response = await fetch(`${apiOrigin(host)}/v1${path}`, {
    method: options.method ?? "GET",
    headers,
    body: options.body,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString("utf8");
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the assertion on the body will show the text
  }
  return { status: response.status, contentType: response.headers.get("content-type"), body, bytes };
}
