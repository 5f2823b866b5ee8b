import { DomainError } from "../lib/errors";
import type { RegionId } from "@alpvault/contracts/regions";
import type { PacedApi } from "../engine/google/daily-budget";
import * as repo from "./repo";
import type { DispatcherState } from "./repo";

const DATABASE_TIMEOUT_MS = 5000;

export interface SystemService {
  /** Resolves when the API can serve requests; throws 503 when its database does not answer. */
  assertHealthy(): Promise<void>;
}

export function systemService(
  deps: { databaseAnswers: (timeoutMs: number) => Promise<boolean> } = {
    databaseAnswers: repo.databaseAnswers,
  },
): SystemService {
  return {
    async assertHealthy() {
      if (!(await deps.databaseAnswers(DATABASE_TIMEOUT_MS))) {
        throw DomainError.unavailable("The database is unresponsive. Please try again later.");
      }
    },
  };
}

/** Records one run of a region's dispatcher and answers the totals after it. */
export function recordDispatcherRun(regionId: RegionId, scheduledTime: string): Promise<DispatcherState> {
  return repo.recordDispatcherRun(regionId, scheduledTime);
}

/** The Google units the project spent on the API on the (Pacific) day. */
export function googleUnitsSpent(api: PacedApi, day: string): Promise<number> {
  return repo.googleUnitsSpent(api, day);
}

/** Adds units the project spent on the API on the day. */
export function addGoogleUnitsSpent(api: PacedApi, day: string, units: number): Promise<void> {
  return repo.addGoogleUnitsSpent(api, day, units);
}
