/**
 * What tests of restore drills share: starting a drill now through the API and polling it to its end.
 */
import type { DrillRun, DrillRunDetail } from "@alpvault/contracts/drills";
import type { ApiCaller } from "./organizations";

/** Polls the drill until it passed or failed (at most 3 minutes); `base` is `/organizations/{id}`. */
export async function finishedDrill(
  call: ApiCaller,
  base: string,
  drillRunId: string,
): Promise<DrillRunDetail> {
  const until = Date.now() + 180_000;
  for (;;) {
    const answer = await call(`${base}/drills/runs/${drillRunId}`);
    expect(answer.status).toBe(200);
    const run = answer.body as DrillRunDetail;
    if (run.state === "passed" || run.state === "failed") return run;
    if (Date.now() > until) throw new Error(`Drill ${drillRunId} did not finish: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Starts a drill now as `admin` (202, pending, manual) and waits for its end. */
export async function runDrill(call: ApiCaller, base: string, admin: string): Promise<DrillRunDetail> {
  const started = await call(`${base}/drills/run`, { method: "POST" });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ state: "pending", trigger: "manual", requestedBy: admin });
  return finishedDrill(call, base, (started.body as DrillRun).drillRunId);
}
