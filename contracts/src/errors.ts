import { APP_CHECK_HEADER } from "./app-check";

/** The error object of docs/requirements.md#errors-and-messages: every failed API call answers with this shape. */
export interface ApiError {
  code: number;
  message: string;
}

export const UNEXPECTED_ERROR: ApiError = { code: 500, message: "Unexpected error occurred" };

/** docs/requirements.md#errors-and-messages: a value lacking the `{code, message}` shape becomes code 500, "Unexpected error occurred". */
export function toApiError(value: unknown): ApiError {
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "number" &&
    typeof (value as { message?: unknown }).message === "string"
  ) {
    const { code, message } = value as ApiError;
    return { code, message };
  }
  return { ...UNEXPECTED_ERROR };
}

/** Why /v1 refuses a caller before any route runs (401: no valid tokens; 403: not a verified Google sign-in). */
export const AUTH_MESSAGES = {
  missingIdToken: "Authentication required: send a Firebase ID token as 'Authorization: Bearer <token>'",
  invalidIdToken: "The Firebase ID token is invalid or expired. Please sign in again.",
  missingAppCheck: `App Check token required: send it in the '${APP_CHECK_HEADER}' header`,
  invalidAppCheck: "The App Check token is invalid or expired.",
  notGoogle: "Sign in with Google: Alpvault accepts only Google Workspace accounts.",
  noEmail: "This Google account has no email address. Sign in with your Google Workspace account.",
  unverifiedEmail:
    "Google has not verified this account's email address. Sign in with your Google Workspace account.",
  foreignDomain: "This Google account does not belong to the Workspace domain of its email address.",
} as const;
