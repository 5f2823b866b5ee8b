import type { NextFunction, Request, RequestHandler, Response } from "express";
import { APP_CHECK_HEADER } from "@alpvault/contracts/app-check";
import { AUTH_MESSAGES } from "@alpvault/contracts/errors";
import * as logs from "../logs";
import type { Caller, RefusedAttempt } from "../lib/caller";
import { DomainError } from "../lib/errors";

/** What a valid Firebase ID token says of its user (nothing in it is trusted beyond its signature). */
export interface VerifiedIdToken {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** How this sign-in happened (`firebase.sign_in_provider`): "google.com", "password", "custom"… */
  signInProvider: string | null;
  /** The Google account id (`firebase.identities["google.com"][0]`), when the user has one. */
  googleSub: string | null;
  /** The Workspace domain the token names (a Google `hd` claim), when it names one. */
  hostedDomain: string | null;
  displayName?: string | null;
  pictureUrl?: string | null;
  /** When the user signed in (seconds since the epoch): one sign-in, one "user logged in" entry. */
  authTime?: number | null;
}

export interface IdentityVerifier {
  /** Resolves to the verified token, rejects when the token is invalid, expired or revoked. */
  verifyIdToken(idToken: string): Promise<VerifiedIdToken>;
}

export interface AppCheckVerifier {
  /** Resolves to the verified app id, rejects when the token is invalid. */
  verifyAppCheckToken(token: string): Promise<{ appId: string }>;
}

/**
 * The caller a verified token makes, or the reason it is refused: only a Google sign-in whose address
 * Google verified, and whose Workspace domain (where the token names one) is the address's domain. Any
 * other provider (an e-mail/password account, an anonymous or custom-token sign-in) could claim any
 * address, so it never reaches the organisation checks, which go by the address.
 */
export function callerFrom(
  token: VerifiedIdToken,
  appId: string,
): { caller: Caller; refusal?: undefined } | { caller?: undefined; refusal: string } {
  if (token.signInProvider !== "google.com" || !token.googleSub) return { refusal: AUTH_MESSAGES.notGoogle };
  if (!token.email) return { refusal: AUTH_MESSAGES.noEmail };
  if (!token.emailVerified) return { refusal: AUTH_MESSAGES.unverifiedEmail };
  const email = token.email.toLowerCase();
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (token.hostedDomain !== null && token.hostedDomain.toLowerCase() !== domain) {
    return { refusal: AUTH_MESSAGES.foreignDomain };
  }
  return {
    caller: {
      uid: token.uid,
      email,
      googleSub: token.googleSub,
      displayName: token.displayName ?? null,
      pictureUrl: token.pictureUrl ?? null,
      authTime: token.authTime ?? null,
      appId,
    },
  };
}

/** The organisation id a /v1 path names (`/organizations/{id}…`), decoded, or null. */
function organizationIdInPath(path: string): string | null {
  const match = /^\/organizations\/([^/]+)/.exec(path);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

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
 * App Check check is the cheaper one and gates automated traffic first), then a verified Google identity
 * (`callerFrom`): anything else is 403, reported to `onRefused` (the audit log of the organisation named
 * in the path) before the answer, and reaches no route.
 */
export function authenticate(deps: {
  identity: IdentityVerifier;
  appCheck: AppCheckVerifier;
  onRefused?: (attempt: RefusedAttempt) => Promise<void>;
}): RequestHandler {
  // Named: the route table (route-table.ts) tells public routes by their place before this layer.
  return async function authenticateRequest(request: Request, response: Response, next: NextFunction) {
    try {
      const appCheckToken = request.get(APP_CHECK_HEADER);
      if (!appCheckToken) throw DomainError.unauthenticated(AUTH_MESSAGES.missingAppCheck);
      const { appId } = await deps.appCheck.verifyAppCheckToken(appCheckToken).catch((cause: unknown) => {
        throw DomainError.unauthenticated(AUTH_MESSAGES.invalidAppCheck, cause);
      });

      const idToken = bearerToken(request);
      if (!idToken) throw DomainError.unauthenticated(AUTH_MESSAGES.missingIdToken);
      const token = await deps.identity.verifyIdToken(idToken).catch((cause: unknown) => {
        throw DomainError.unauthenticated(AUTH_MESSAGES.invalidIdToken, cause);
      });

      const { caller, refusal } = callerFrom(token, appId);
      if (refusal !== undefined) {
        // Recording is best effort: whatever it meets, the answer stays the refusal.
        await deps
          .onRefused?.({
            organizationId: organizationIdInPath(request.path),
            uid: token.uid,
            claimedEmail: token.email,
            signInProvider: token.signInProvider,
            method: request.method,
            path: request.path.slice(0, 200),
            reason: refusal,
          })
          .catch((error: unknown) => logs.refusalNotRecorded({ route: request.path.slice(0, 200), error }));
        throw DomainError.forbidden(refusal);
      }
      (response.locals as { caller?: Caller }).caller = caller;
      next();
    } catch (error) {
      next(error);
    }
  };
}
