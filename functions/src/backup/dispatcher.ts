import { recordDispatcherRun } from "../system/repo";
import * as logs from "../logs";

/**
 * The scheduled dispatcher's handler (Cloud Scheduler every 10 minutes in production; the local
 * scheduler calls it on a timer). It records each run; computing due resources and enqueueing backup
 * tasks arrives with the backup engine.
 */
export async function runDispatcher(scheduledTime: string): Promise<void> {
  const state = await recordDispatcherRun(scheduledTime);
  logs.dispatcherRan({ scheduledTime, runs: state.runs });
}
