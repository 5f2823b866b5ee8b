/**
 * App Check tokens in emulator builds.
 *
 * App Check has no emulator, so emulator builds mint an unsigned token (JWT with `alg: "none"`) that
 * carries the claims a real App Check token carries; the API checks those claims. Production never
 * accepts these tokens: it verifies signed tokens with `getAppCheck().verifyToken()`.
 */
export const APP_CHECK_HEADER = "X-Firebase-AppCheck";
export const APP_CHECK_ISSUER_PREFIX = "https://firebaseappcheck.googleapis.com/";
/** Stand-in project number for local work (demo projects have none). */
export const EMULATOR_PROJECT_NUMBER = "000000000000";
/** App Check token lifetime we mint locally (real tokens: 1 h by default). */
export const EMULATOR_APP_CHECK_TTL_SECONDS = 3600;

export interface AppCheckClaims {
  iss: string;
  sub: string;
  aud: string[];
  iat: number;
  exp: number;
}

function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64UrlDecode(part: string): string {
  const padded = part.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((part.length + 3) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function mintUnsignedAppCheckToken(input: { appId: string; projectId: string; nowSeconds: number }): {
  token: string;
  expireTimeMillis: number;
} {
  const claims: AppCheckClaims = {
    iss: APP_CHECK_ISSUER_PREFIX + EMULATOR_PROJECT_NUMBER,
    sub: input.appId,
    aud: [`projects/${EMULATOR_PROJECT_NUMBER}`, `projects/${input.projectId}`],
    iat: input.nowSeconds,
    exp: input.nowSeconds + EMULATOR_APP_CHECK_TTL_SECONDS,
  };
  const header = base64UrlEncode(JSON.stringify({ alg: "none", typ: "JWT" }));
  const payload = base64UrlEncode(JSON.stringify(claims));
  return { token: `${header}.${payload}.`, expireTimeMillis: claims.exp * 1000 };
}

export type AppCheckCheck = { ok: true; appId: string } | { ok: false; reason: string };

/** Checks the claims of an unsigned emulator token: shape, issuer, audience, app id and lifetime. */
export function checkUnsignedAppCheckToken(
  token: string,
  expected: { projectId: string; appIds: readonly string[]; nowSeconds: number },
): AppCheckCheck {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[2] !== "") return { ok: false, reason: "malformed token" };
  let header: unknown;
  let claims: Partial<AppCheckClaims>;
  try {
    header = JSON.parse(base64UrlDecode(parts[0] ?? ""));
    claims = JSON.parse(base64UrlDecode(parts[1] ?? "")) as Partial<AppCheckClaims>;
  } catch {
    return { ok: false, reason: "malformed token" };
  }
  if ((header as { alg?: unknown } | null)?.alg !== "none")
    return { ok: false, reason: "unexpected algorithm" };
  if (typeof claims !== "object" || claims === null) return { ok: false, reason: "malformed token" };
  if (claims.iss !== APP_CHECK_ISSUER_PREFIX + EMULATOR_PROJECT_NUMBER)
    return { ok: false, reason: "wrong issuer" };
  if (!Array.isArray(claims.aud) || !claims.aud.includes(`projects/${expected.projectId}`)) {
    return { ok: false, reason: "wrong audience" };
  }
  if (typeof claims.sub !== "string" || !expected.appIds.includes(claims.sub)) {
    return { ok: false, reason: "unknown app" };
  }
  if (typeof claims.exp !== "number" || typeof claims.iat !== "number")
    return { ok: false, reason: "malformed token" };
  if (claims.exp <= expected.nowSeconds) return { ok: false, reason: "expired" };
  if (claims.iat > expected.nowSeconds + 300) return { ok: false, reason: "issued in the future" };
  return { ok: true, appId: claims.sub };
}
