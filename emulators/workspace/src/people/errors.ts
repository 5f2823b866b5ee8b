/**
 * The People API's error body: `{error: {code, message, status, details?}}`, without the `errors[]` list
 * of the older APIs (Gmail, Drive); e.g. the expired sync token answer that freed-project/freed#1993 and
 * garrytan/gbrain#5127 quote, and the 429 of rapidwebltd/php-google-people-api#45. Every error of a People
 * route, the dispatcher's too (token, scopes, quota, faults), is rendered in this shape by `renderPeopleError`.
 */
import { GoogleApiError } from "../http";
import { PEOPLE_WRITE_METHODS } from "../quota-models";

/** The emulator's project number (emulator.ts, our Marketplace application id), as quota messages name it. */
const MARKETPLACE_APPLICATION_ID = "104857600";

export class PeopleApiError extends GoogleApiError {
  override body(): unknown {
    return {
      error: {
        code: this.code,
        message: this.message,
        status: this.status,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

export function peopleError(
  code: number,
  message: string,
  status?: string,
  details?: unknown[],
  headers?: Record<string, string>,
): PeopleApiError {
  return new PeopleApiError(code, message, (status ?? "INVALID_ARGUMENT").toLowerCase(), {
    ...(status ? { status } : {}),
    ...(details ? { details } : {}),
    ...(headers ? { headers } : {}),
  });
}

export const errorInfo = (reason: string, domain: string, metadata?: Record<string, string>): unknown => ({
  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
  reason,
  domain,
  ...(metadata ? { metadata } : {}),
});

/** "Sync tokens expire 7 days after the full sync. … ErrorInfo with reason EXPIRED_SYNC_TOKEN." */
export function expiredSyncToken(): PeopleApiError {
  return peopleError(
    400,
    "Sync token is expired. Clear local cache and retry call without the sync token.",
    "FAILED_PRECONDITION",
    [errorInfo("EXPIRED_SYNC_TOKEN", "people.googleapis.com")],
  );
}

/** The required field mask is missing (people.get: "personFields mask is required …"). */
export function maskRequired(
  name: "personFields" | "readMask" | "updatePersonFields",
  doc: string,
): PeopleApiError {
  return peopleError(
    400,
    `${name} mask is required. Please specify one or more valid paths. Valid paths are documented at https://developers.google.com/people/api/rest/v1/${doc}.`,
  );
}

const METRICS = {
  read: ["Critical read requests (Contact and Profile Reads)", "people.googleapis.com/read_requests"],
  write: ["Critical write requests (Contact Creates and Updates)", "people.googleapis.com/write_requests"],
} as const;

/** The 429 of a per-minute quota (the message GAM quotes in taers232c/GAMADV-XTD3#315). */
function quotaError(methodId: string, perUser: boolean): PeopleApiError {
  const [metric, id] = METRICS[PEOPLE_WRITE_METHODS.has(methodId) ? "write" : "read"];
  const limit = `${metric} per minute${perUser ? " per user" : ""}`;
  return peopleError(
    429,
    `Quota exceeded for quota metric '${metric}' and limit '${limit}' of service 'people.googleapis.com' for consumer 'project_number:${MARKETPLACE_APPLICATION_ID}'.`,
    "RESOURCE_EXHAUSTED",
    [
      errorInfo("RATE_LIMIT_EXCEEDED", "googleapis.com", {
        quota_metric: id,
        quota_limit: limit,
        service: "people.googleapis.com",
        consumer: `projects/${MARKETPLACE_APPLICATION_ID}`,
      }),
    ],
  );
}

/** An error of a People route, in the People API's shape (the quota tracker's answers as People's 429). */
export function renderPeopleError(methodId: string, rpcMethod: string) {
  return (error: GoogleApiError): GoogleApiError => {
    if (error instanceof PeopleApiError) return error;
    if (error.reason === "userRateLimitExceeded") return quotaError(methodId, true);
    if (error.reason === "rateLimitExceeded" && error.code === 403) return quotaError(methodId, false);
    const details =
      error.reason === "insufficientPermissions"
        ? [
            errorInfo("ACCESS_TOKEN_SCOPE_INSUFFICIENT", "googleapis.com", {
              service: "people.googleapis.com",
              method: rpcMethod,
            }),
          ]
        : error.details;
    return peopleError(error.code, error.message, error.status, details, error.headers);
  };
}

/**
 * An update whose etag is not the current one: "The server returns a 400 error with reason
 * "failedPrecondition" if person.metadata.sources.etag is different than the contact's etag"
 * (people.updateContact), in the words googleapis/google-api-python-client#2417 and
 * rapidwebltd/php-google-people-api#22 quote. A contact group's (contactGroups.update) in the same form.
 */
export function staleEtag(
  field: "person.etag" | "person.metadata.sources.etag" | "contact_group.etag",
): PeopleApiError {
  const what = field.startsWith("person") ? "person" : "contact group";
  return peopleError(
    400,
    `Request ${field} is different than the current ${field}. Clear local cache and get the latest ${what}.`,
    "FAILED_PRECONDITION",
  );
}

/** An update without the etag of what it changes (Google publishes no wording: ours names the fields). */
export function etagRequired(fields: string): PeopleApiError {
  return peopleError(400, `Request must set ${fields}.`);
}
