/**
 * How the backup engine calls Google: every request goes through a `GoogleCaller`, which knows whose
 * quota it spends (the delegated user), what it costs (Google's unit cost of the method) and how to retry.
 * Sources only ever call Google through it.
 *
 * Production uses `quotaAwareCaller()` (`quota-caller.ts`), one per process, shared by every run; a run
 * wraps it in `meteredCaller()` (same file) to count its own units. The official clients behind `send` are built
 * with `googleClientOptions()` (`client-options.ts`) so that only the caller retries. Method ids and their
 * unit costs: `costs.ts` (a Drive download is `drive.files.download`, not `drive.files.get`).
 */

export const GOOGLE_APIS = ["gmail", "drive", "directory", "calendar", "people"] as const;
export type GoogleApi = (typeof GOOGLE_APIS)[number];

/** Figures of calls through a caller (per method, per user, or one run's `meter`). */
export interface CallCounts {
  /** Calls made through the caller. */
  calls: number;
  /** Requests sent (calls + retries). */
  attempts: number;
  retries: number;
  /** Calls that failed for good. */
  failures: number;
  /** Quota units spent (every attempt sent). */
  units: number;
  /**
   * Time (ms) attempts waited for the user's or the project's quota before being sent: a run whose calls
   * barely wait is held back by Google's answer times, not by its quota (see `AdaptiveConcurrency`).
   */
  quotaWaitMs: number;
}

export interface GoogleRequest {
  api: GoogleApi;
  /** The delegated user whose per-user quota the call spends. */
  user: string;
  /** Google's method id, e.g. "gmail.users.messages.get", "drive.files.list". */
  method: string;
  /** True when repeating the call cannot do anything twice (GET, or an idempotent write). */
  idempotent: boolean;
  /**
   * Aborted (e.g. the worker nears its deadline): the caller stops between attempts and during backoff
   * and rejects with the signal's reason; a request already sent is not cancelled by it.
   */
  signal?: AbortSignal;
  /** Also counts this call here (a run's usage, and its usage of this API); see `meteredCaller`. */
  meters?: CallCounts[];
}

export interface GoogleCaller {
  /** Runs `send` within the user's and the project's quota, retrying what Google asks to retry. */
  call<T>(request: GoogleRequest, send: () => Promise<T>): Promise<T>;
}

/** No quota, no retries: for tests of code that only needs a caller. */
export const DIRECT_CALLER: GoogleCaller = {
  call: (_request, send) => send(),
};

export const emptyCounts = (): CallCounts => ({
  calls: 0,
  attempts: 0,
  retries: 0,
  failures: 0,
  units: 0,
  quotaWaitMs: 0,
});
