/**
 * What tests of restore drills share: starting a drill now through the API and polling it to its end.
 */
import type { DrillRun, DrillRunDetail } from "@alpvault/contracts/drills";
import type { ApiCaller } from "./organizations";
import { afterBackgroundWork } from "./wait";

/** The drill once it passed or failed (see `afterBackgroundWork`); `base` is `/organizations/{id}`. */
export function finishedDrill(call: ApiCaller, base: string, drillRunId: string): Promise<DrillRunDetail> {
  return afterBackgroundWork(
    `Drill ${drillRunId}`,
    async () => {
      const answer = await call(`${base}/drills/runs/${drillRunId}`);
      expect(answer.status).toBe(200);
      return answer.body as DrillRunDetail;
    },
    (run) => run.state === "passed" || run.state === "failed",
    180_000,
  );
}

/** Starts a drill now as `admin` (202, pending, manual) and waits for its end. */
export async function runDrill(call: ApiCaller, base: string, admin: string): Promise<DrillRunDetail> {
  const started = await call(`${base}/drills/run`, { method: "POST" });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ state: "pending", trigger: "manual", requestedBy: admin });
  return finishedDrill(call, base, (started.body as DrillRun).drillRunId);
}
