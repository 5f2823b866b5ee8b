import { DomainError } from "../lib/errors";
import { databaseAnswers } from "./repo";

const DATABASE_TIMEOUT_MS = 5000;

export interface SystemService {
  /** Resolves when the API can serve requests; throws 503 when its database does not answer. */
  assertHealthy(): Promise<void>;
}

export function systemService(
  deps: { databaseAnswers: (timeoutMs: number) => Promise<boolean> } = { databaseAnswers },
): SystemService {
  return {
    async assertHealthy() {
      if (!(await deps.databaseAnswers(DATABASE_TIMEOUT_MS))) {
        throw DomainError.unavailable("The database is unresponsive. Please try again later.");
      }
    },
  };
}
