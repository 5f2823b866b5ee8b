/**
 * How the backup engine calls Google: every request goes through a `GoogleCaller`, which knows whose
 * quota it spends (the delegated user), what it costs (Google's unit cost of the method) and how to retry.
 * Sources (Gmail, Drive) only ever call Google through it.
 */

export type GoogleApi = "gmail" | "drive" | "directory";

export interface GoogleRequest {
  api: GoogleApi;
  /** The delegated user whose per-user quota the call spends. */
  user: string;
  /** Google's method id, e.g. "gmail.users.messages.get", "drive.files.list". */
  method: string;
  /** True when repeating the call cannot do anything twice (GET, or an idempotent write). */
  idempotent: boolean;
}

export interface GoogleCaller {
  /** Runs `send` within the user's and the project's quota, retrying what Google asks to retry. */
  call<T>(request: GoogleRequest, send: () => Promise<T>): Promise<T>;
}

/** No quota, no retries: for tests of code that only needs a caller. */
export const DIRECT_CALLER: GoogleCaller = {
  call: (_request, send) => send(),
};
