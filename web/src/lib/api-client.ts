import { APP_CHECK_HEADER } from "@alpvault/contracts/app-check";
import { toApiError, type ApiError as ApiErrorShape } from "@alpvault/contracts/errors";
import { env } from "@/config/env";
import { loadFirebase } from "@/lib/firebase";

/** A failed API call (docs/requirements.md#errors-and-messages): numeric code and message, whatever went wrong underneath. */
export class ApiError extends Error implements ApiErrorShape {
  readonly code: number;
  constructor(shape: ApiErrorShape) {
    super(shape.message);
    this.name = "ApiError";
    this.code = shape.code;
  }
}

export const NOT_SIGNED_IN: ApiErrorShape = { code: 401, message: "Please sign in again." };

type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Array values are sent as repeated keys (docs/requirements.md#calls-the-web-makes). */
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Another API host (e.g. an organisation's regional domain); defaults to the configured base. */
  baseUrl?: string;
  signal?: AbortSignal;
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) params.append(key, String(item));
  }
  const search = params.toString();
  return `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}${search ? `?${search}` : ""}`;
}

async function credentials(): Promise<Record<string, string>> {
  const { auth, appCheck, getToken } = await loadFirebase();
  const user = auth.currentUser;
  if (!user) throw new ApiError(NOT_SIGNED_IN);
  const [idToken, appCheckToken] = await Promise.all([user.getIdToken(), getToken(appCheck, false)]);
  return { Authorization: `Bearer ${idToken}`, [APP_CHECK_HEADER]: appCheckToken.token };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Each organisation's API base (its region's host): an organisation's data is served only by its region's
 * API, so every `/organizations/{id}/…` call goes there. The session registers the organisations it
 * learns of (`registerOrganizationRegion`); other calls go to the configured (global) base.
 */
const organizationApis = new Map<string, string>();

export function registerOrganizationRegion(organizationId: string, regionDomain: string): void {
  organizationApis.set(organizationId, regionalBaseUrl(regionDomain));
}

/** The API base a path belongs to: its organisation's region, or the global API. */
export function apiBaseFor(path: string): string {
  const organizationId = /^\/?organizations\/([^/?]+)/.exec(path)?.[1];
  return (organizationId && organizationApis.get(decodeURIComponent(organizationId))) || env.apiBaseUrl;
}

/** Sends a request with the caller's tokens; a failure before any answer becomes an `ApiError`. */
async function send(url: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
  try {
    return await fetch(url, { ...init, headers: { ...init.headers, ...(await credentials()) } });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    console.warn("API request failed before an answer", error);
    throw new ApiError(toApiError(error));
  }
}

/**
 * The one way the web app talks to the API: every request carries a fresh Firebase ID token and an App
 * Check token; any failure (network, non-2xx, unreadable answer) becomes an `ApiError`.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(buildUrl(options.baseUrl ?? apiBaseFor(path), path, options.query), {
    method: options.method ?? "GET",
    headers: {
      Accept: "application/json",
      ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const payload = await readJson(response);
  if (!response.ok) throw new ApiError(toApiError(payload));
  return payload as T;
}

/**
 * A download from the API (a POST with a JSON body answering a file, or a GET without a body), read as a
 * stream so `onProgress` hears the bytes received; failures become `ApiError`s like every other call.
 */
export async function apiDownload(
  path: string,
  body: unknown,
  onProgress?: (bytes: number) => void,
): Promise<Blob> {
  const response = await send(
    buildUrl(apiBaseFor(path), path),
    body === undefined
      ? { method: "GET", headers: {} }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
  );
  if (!response.ok || !response.body) throw new ApiError(toApiError(await readJson(response)));
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.length;
      onProgress?.(received);
    }
  } catch (error) {
    throw new ApiError(toApiError(error));
  }
  return new Blob(parts as BlobPart[], {
    type: response.headers.get("Content-Type") ?? "application/octet-stream",
  });
}

/**
 * The API base of a region's host (docs/requirements.md#calls-the-web-makes: regional calls go to the region's domain; http in
 * development builds, https in production). A region served by the page's own host (the local stack
 * serves every region from one host) uses the configured base, so the call stays same-origin.
 */
export function regionalBaseUrl(domain: string): string {
  if (typeof window !== "undefined" && domain === window.location.host) return env.apiBaseUrl;
  return `${env.useEmulators ? "http" : "https"}://${domain}/v1`;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "GET" }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "POST", body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "PUT", body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "PATCH", body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "DELETE" }),
};
