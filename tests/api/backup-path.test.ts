/**
 * The files a Gmail backup passes, from the scheduler to the stored chunk, measured: a scheduled run of a
 * mail-only policy is dispatched and delivered while every call that leaves the process records the product
 * files on its whole causal path (tests/support/call-paths.ts). The path of a stored chunk is the union of
 * three: the dispatcher enqueueing the run, the request that fetched the message's bytes from Gmail, and
 * the write of the chunk's object to the bucket. docs/architecture.md lists exactly those files, with the
 * scheduled function's `index.ts` (the test starts one call below it, at the dispatcher), and at most 15.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Policy } from "@alpvault/contracts/policies";
import { testMessage } from "../../emulators/workspace/src/index";
import { traceCallPaths, type Effect } from "../support/call-paths";
import { onboarded, setAccount, withRegionDb } from "../support/organizations";
import { REGION_DB, finishedRun, organizationDoc, resourceOf, runsOf } from "../support/backup-runs";
import { dispatch, drainTasks } from "../support/background";
import { harness } from "../support/in-process/harness";
import { GOLD } from "../support/policies";
import { workspaceAdmin } from "../support/workspace";

jest.setTimeout(180_000);

const MESSAGES = 3;
const MAX_FILES = 15;
const ARCHITECTURE = resolve(__dirname, "..", "..", "docs", "architecture.md");
const PATH_HEADING = "### The files on the path";

/** The files the architecture document lists under its path heading (one backticked path per item). */
function documentedPath(): string[] {
  const text = readFileSync(ARCHITECTURE, "utf8");
  const section = text.slice(text.indexOf(PATH_HEADING) + PATH_HEADING.length);
  const list = section.slice(0, section.search(/\n#/));
  return [...list.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) => match[1]!);
}

let effects: Effect[];

beforeAll(async () => {
  const { call, organization, workspace } = await onboarded();
  await setAccount(organization, { planId: "geneva", seats: 5 });
  for (let index = 0; index < MESSAGES; index++) {
    const raw = testMessage({
      subject: `Path ${index}`,
      to: workspace.user,
      messageId: `path${index}.${organization.organizationId}@x.test`,
      text: `Body ${index} `.repeat(100),
    });
    const added = await workspaceAdmin("POST", `/users/${workspace.user}/gmail/messages`, {
      raw: raw.toString("base64"),
      encoding: "base64",
    });
    expect(added.status).toBe(200);
  }
  const created = await call(`/organizations/${organization.organizationId}/policies`, {
    method: "POST",
    body: { ...GOLD, name: "Mail only", dataTypes: ["emails"] },
  });
  expect(created.status).toBe(201);
  const policy = created.body as Policy;
  const user = await resourceOf(call, organization, workspace.user);
  await withRegionDb(REGION_DB, (db) =>
    organizationDoc(organization)(db)
      .collection("resources")
      .doc(user.resourceId)
      .update({
        policyId: policy.policyId,
        policyName: policy.name,
        protected: true,
        nextBackupAt: new Date(Date.now() - 60_000).toISOString(),
      }),
  );
  const trace = traceCallPaths(harness().queue.transport);
  try {
    expect(await dispatch(organization.organizationId)).toMatchObject({ backupsScheduled: 1 });
    await drainTasks();
  } finally {
    trace.stop();
  }
  const [run] = await runsOf(organization, user.resourceId);
  expect(await finishedRun(organization, user.resourceId, run!.runId)).toMatchObject({
    state: "succeeded",
    trigger: "schedule",
  });
  effects = trace.effects();
});

function chunkPath(): { enqueued: Effect[]; fetched: Effect[]; stored: Effect[] } {
  return {
    enqueued: effects.filter((effect) => effect.kind === "task runBackup"),
    fetched: effects.filter((effect) =>
      /^http GET \S+\/gmail\/v1\/users\/me\/messages\/\w+\?format=raw/.test(effect.kind),
    ),
    stored: effects.filter((effect) => /^storage save o\/[^/]+\/c\//.test(effect.kind)),
  };
}

test("when a scheduled Gmail backup runs, then each message fetched and each chunk stored is traced back to the task's delivery, and the run's task to the dispatcher", () => {
  const { enqueued, fetched, stored } = chunkPath();
  expect(enqueued).toHaveLength(1);
  expect(enqueued[0]!.files).toContain("jobs/dispatcher.ts");
  expect(fetched).toHaveLength(MESSAGES);
  expect(stored.length).toBeGreaterThanOrEqual(MESSAGES);
  for (const effect of [...fetched, ...stored]) expect(effect.files).toContain("backups/task.ts");
  for (const effect of fetched) expect(effect.files).toContain("engine/gmail/source.ts");
  for (const effect of stored) expect(effect.files).toContain("engine/blobstore/gcs-blob-store.ts");
});

test("when the files on the chunk's path are counted, then docs/architecture.md lists exactly them after index.ts, and there are at most 15", () => {
  const { enqueued, fetched, stored } = chunkPath();
  const measured = new Set([...enqueued, ...fetched, ...stored].flatMap((effect) => effect.files));
  const documented = documentedPath();
  expect(documented[0]).toBe("index.ts");
  expect([...new Set(documented)].sort()).toEqual(["index.ts", ...measured].sort());
  expect(documented.length).toBeLessThanOrEqual(MAX_FILES);
});
