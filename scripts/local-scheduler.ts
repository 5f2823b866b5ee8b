/**
 * The local stand-in for Cloud Scheduler → Pub/Sub → `onSchedule`, which the emulators cannot run here: it
 * calls each region's deployed dispatcher's own handler (`<region>.dispatchBackups.run`) once at start and
 * then on a timer (`SCHEDULER_INTERVAL_SECONDS`; `once`: only at the start, as the test stack has it).
 */
import { resolve } from "node:path";
import { REGION_IDS, type RegionId } from "../contracts/src/regions";

interface ScheduledFunction {
  run(event: { scheduleTime: string; jobName?: string }): Promise<unknown>;
}

const interval = process.env.SCHEDULER_INTERVAL_SECONDS ?? "600";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const functions = require(resolve(__dirname, "..", "functions", "lib", "index.js")) as Record<
  RegionId,
  { dispatchBackups: ScheduledFunction }
>;

let running = false;

async function tick(): Promise<void> {
  if (running) return; // a slow run is never overlapped, like a Cloud Scheduler job with one attempt at a time
  running = true;
  const scheduleTime = new Date().toISOString();
  try {
    for (const regionId of REGION_IDS) {
      try {
        await functions[regionId].dispatchBackups.run({
          scheduleTime,
          jobName: `local-${regionId}-dispatchBackups`,
        });
        console.log(`[scheduler] ${regionId}-dispatchBackups ran for ${scheduleTime}`);
      } catch (error) {
        console.error(
          `[scheduler] ${regionId}-dispatchBackups failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  } finally {
    running = false;
  }
}

// tick() reports each region's failure itself and never rejects.
void tick();
// Once: the process stays until it is stopped, as the stack watches it.
const timer =
  interval === "once"
    ? setInterval(() => undefined, 2 ** 31 - 1)
    : setInterval(() => void tick(), Number(interval) * 1000);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    clearInterval(timer);
    process.exit(0);
  });
}
