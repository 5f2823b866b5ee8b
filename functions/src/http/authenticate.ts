import type { NextFunction, Request, RequestHandler, Response } from "express";
import { APP_CHECK_HEADER } from "@alpvault/contracts/app-check";
import { AppError } from "./app-error";

/** Who is calling: set by `authenticate` on `res.locals.caller` for every /v1 route behind it. */
export interface Caller {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** The Google account id, when the user signed in with Google. */
  googleSub: string | null;
  displayName?: string | null;
  pictureUrl?: string | null;
  /** When the user signed in (seconds since the epoch): one sign-in, one "user logged in" entry. */
  authTime?: number | null;
  appId: string;
}

export interface IdentityVerifier {
  /** Resolves to the verified identity, rejects when the token is invalid, expired or revoked. */
  verifyIdToken(idToken: string): Promise<Omit<Caller, "appId">>;
}

export interface AppCheckVerifier {
  /** Resolves to the verified app id, rejects when the token is invalid. */
  verifyAppCheckToken(token: string): Promise<{ appId: string }>;
}

export const AUTH_MESSAGES = {
  missingIdToken: "Authentication required: send a Firebase ID token as 'Authorization: Bearer <token>'",
  invalidIdToken: "The Firebase ID token is invalid or expired. Please sign in again.",
  missingAppCheck: `App Check token required: send it in the '${APP_CHECK_HEADER}' header`,
  invalidAppCheck: "The App Check token is invalid or expired.",
} as const;

function bearerToken(request: Request): string | undefined {
  const header = request.get("authorization");
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export function callerOf(response: Response): Caller {
  const caller = (response.locals as { caller?: Caller }).caller;
  if (!caller) throw new Error("callerOf() used on a route without authenticate()");
  return caller;
}

/**
 * Requires a valid App Check token and a valid Firebase ID token on every request, in that order (the
 * App Check check is the cheaper one and gates automated traffic first).
 */
export function authenticate(deps: {
  identity: IdentityVerifier;
  appCheck: AppCheckVerifier;
}): RequestHandler {
  return async (request: Request, response: Response, next: NextFunction) => {
    try {
      const appCheckToken = request.get(APP_CHECK_HEADER);
      if (!appCheckToken) throw AppError.unauthenticated(AUTH_MESSAGES.missingAppCheck);
      const { appId } = await deps.appCheck.verifyAppCheckToken(appCheckToken).catch((cause: unknown) => {
        throw new AppError(401, AUTH_MESSAGES.invalidAppCheck, { cause });
      });

      const idToken = bearerToken(request);
      if (!idToken) throw AppError.unauthenticated(AUTH_MESSAGES.missingIdToken);
      const identity = await deps.identity.verifyIdToken(idToken).catch((cause: unknown) => {
        throw new AppError(401, AUTH_MESSAGES.invalidIdToken, { cause });
      });

      const caller: Caller = { ...identity, appId };
      (response.locals as { caller?: Caller }).caller = caller;
      next();
    } catch (error) {
      next(error);
    }
  };
}
