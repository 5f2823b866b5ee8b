/**
 * Who is calling: the HTTP layer sets it for every /v1 route behind authentication. Only a
 * Google sign-in with an address Google verified becomes a caller, so `email` and `googleSub` are there.
 */
export interface Caller {
  uid: string;
  /** The verified address, lower case. */
  email: string;
  googleSub: string;
  displayName?: string | null;
  pictureUrl?: string | null;
  authTime?: number | null;
  appId: string;
}

/** A valid ID token refused because it is not a verified Google sign-in: what the audit log records. */
export interface RefusedAttempt {
  /** The organisation the request's path names, when it names one (not checked: the hook checks it). */
  organizationId: string | null;
  uid: string;
  /** The address the token claims (unverified: the very reason it may be refused). */
  claimedEmail: string | null;
  signInProvider: string | null;
  method: string;
  path: string;
  reason: string;
}
