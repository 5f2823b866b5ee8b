/** Calls the /v1 API through Hosting, as the web app does (ID token + App Check header). */
import { APP_CHECK_HEADER, mintUnsignedAppCheckToken } from "@alpvault/contracts/app-check";
import { LOCAL_WEB_APP_ID } from "@alpvault/contracts/local";
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

export async function callApi(
  path: string,
  options: {
    idToken?: string;
    appCheck?: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.idToken !== undefined) headers.authorization = `Bearer ${options.idToken}`;
  if (options.appCheck !== undefined) headers[APP_CHECK_HEADER] = options.appCheck;
  const response = await fetch(`${stackEnv.webUrl}/v1${path}`, {
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
