import type { Request } from "firebase-functions/v2/tasks";
import { organizationTaskHandler } from "./task-handler";

const delivery = (data: unknown) => ({ id: "task-1", retryCount: 0, data }) as unknown as Request<unknown>;

test("when a delivery names an organisation and its document by valid ids, then the task runs with exactly those", async () => {
  const run = jest.fn(async () => undefined);
  const handle = organizationTaskHandler("ch-runExport", "exportId", run);
  await handle(delivery({ organizationId: "org-1", exportId: "export-1", extra: "ignored" }));
  expect(run).toHaveBeenCalledWith({ organizationId: "org-1", exportId: "export-1" });
});

test("when a delivery's payload is malformed, then it is dropped without running", async () => {
  const run = jest.fn(async () => undefined);
  const handle = organizationTaskHandler("ch-runDrill", "drillRunId", run);
  for (const data of [
    undefined,
    {},
    { organizationId: "org-1" },
    { organizationId: "org-1", drillRunId: "a/b" },
    { organizationId: "..", drillRunId: "run-1" },
    { organizationId: "org-1", drillRunId: 7 },
  ]) {
    await handle(delivery(data));
  }
  expect(run).not.toHaveBeenCalled();
});
