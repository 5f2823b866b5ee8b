/**
 * How the engine builds the official clients (`@googleapis/gmail`, `@googleapis/drive`,
 * `@googleapis/admin`): retries belong to the `GoogleCaller` alone.
 *
 * googleapis-common turns `retry` on for every request unless told otherwise, and gaxios then retries
 * GET/PUT/DELETE on 408, 429 and 5xx and on network errors (three times, its own backoff), but never a
 * 403 rate limit and never a POST. Left on, it would repeat requests behind the caller's back: attempts
 * the buckets did not charge, waits the caller does not see, and 429s retried before the caller can slow
 * the user down. So every client is built with `retry: false` (and a `retryConfig` that allows no retry,
 * in case something sets one):
 *
 *   const gmail = new gmail_v1.Gmail(googleClientOptions({ auth, rootUrl }));
 *   await caller.call({ api: "gmail", user, method: "gmail.users.messages.get", idempotent: true },
 *     () => gmail.users.messages.get({ userId: "me", id, format: "raw" }));
 *
 * Per-call options must not set `retry` or `retryConfig` either. Token requests (google-auth-library's
 * own POST to the token endpoint) keep the library's retry: they are idempotent, cost no quota units and
 * happen inside the caller's attempt.
 */

export const NO_CLIENT_RETRY = { retry: false, retryConfig: { retry: 0, noResponseRetries: 0 } } as const;

/** `options` with the client's own retries switched off. */
export function googleClientOptions<T extends object>(options: T): T & typeof NO_CLIENT_RETRY {
  return { ...options, ...NO_CLIENT_RETRY };
}
