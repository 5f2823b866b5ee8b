/**
 * Data residency through the deployed shape (Hosting's regional sites, the Functions emulator, Cloud
 * Tasks): an organisation's data is stored, processed and served in its region. Its region's API (its own
 * host) is the only one that reads or changes it; the region is chosen at that region's API; its backups run
 * in its region's queue and workers; each region's dispatcher records its runs; the web app's origin, and
 * no other, may call a regional API from the browser. (That a region's workers drop another region's
 * tasks is shown in tests/api/residency-workers.test.ts.)
 */
import type { DocumentData } from "firebase-admin/firestore";
import { LOCAL_WEB_ORIGINS } from "@alpvault/contracts/local";
import { servedElsewhereMessage, type OrganizationSummary } from "@alpvault/contracts/organizations";
import { assignDefaultPolicy, finishedRun, runsOf } from "../support/backup-runs";
import { asUser, googleSubOf, newWorkspace, onboarded, withRegionDb } from "../support/organizations";
import { apiOrigin } from "../support/regions";
import { afterBackgroundWork } from "../support/wait";

jest.setTimeout(180_000);

async function documentIn(databaseId: string, path: string): Promise<DocumentData | undefined> {
  return withRegionDb(databaseId, async (db) => (await db.doc(path).get()).data());
}

describe("an organisation of the European Union", () => {
  let setup: Awaited<ReturnType<typeof onboarded>>;
  let base: string;

  beforeAll(async () => {
    setup = await onboarded("eu");
    base = `/organizations/${setup.organization.organizationId}`;
  });

  test("when it is set up, then its data is in the EU's database only, and the region's host is named in its subscription", async () => {
    const path = `organizations/${setup.organization.organizationId}`;
    expect(await documentIn("region-eu", path)).toMatchObject({ account: { planId: "matterhorn" } });
    expect(await documentIn("region-ch", path)).toBeUndefined();
    expect(await documentIn("region-us", path)).toBeUndefined();
    expect(setup.organization.subscriptions[0]?.region).toMatchObject({
      id: "eu",
      domain: new URL(apiOrigin("eu")).host,
    });
  });

  test("when its admin calls another region's API or the global one, then 421 names the EU's API, for every kind of call", async () => {
    const elsewhere = { code: 421, message: servedElsewhereMessage(`${apiOrigin("eu")}/v1`) };
    for (const host of ["ch", "us", "global"] as const) {
      for (const [path, method] of [
        [base, "GET"],
        [`${base}/resources`, "GET"],
        [`${base}/policies/default`, "PATCH"],
        [`${base}/audit-logs`, "GET"],
      ] as const) {
        const answer = await setup.call(path, {
          method,
          host,
          body: method === "PATCH" ? { retentionDays: 7 } : undefined,
        });
        expect({ host, path, status: answer.status, body: answer.body }).toEqual({
          host,
          path,
          status: 421,
          body: elsewhere,
        });
      }
    }
    // Nothing was changed through them.
    expect((await setup.call(`${base}/policies/default`)).body).toMatchObject({ retentionDays: 30 });
  });

  test("when its admin calls the EU's API, then it answers, and the sign-in is audited there", async () => {
    expect((await setup.call(base)).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const log = await setup.call(`${base}/audit-logs?start=${today}&end=${today}`);
    expect(log.status).toBe(200);
    expect(
      (log.body as { entries: { operation: string }[] }).entries.map((entry) => entry.operation),
    ).toContain("user.logged-in");
  });

  test("when its admin assigns a policy, then the backup the assignment started runs in the EU's queue and workers", async () => {
    const resourceId = `user-${await googleSubOf(setup.workspace.user)}`;
    await assignDefaultPolicy(setup.call, setup.organization, resourceId);
    const [assigned] = await runsOf(setup.organization, resourceId);
    expect(assigned).toBeDefined();
    expect((await finishedRun(setup.organization, resourceId, assigned!.runId)).state).toBe("succeeded");
  });

  test("when the regions' dispatchers have run (the local scheduler runs each at the stack's start), then each recorded its own runs", async () => {
    const regions = await afterBackgroundWork(
      "The regions' first dispatcher runs",
      async () =>
        ((await documentIn("(default)", "system/dispatcher"))?.regions ?? {}) as Record<
          string,
          { runs?: number }
        >,
      (found) => ["ch", "eu", "us"].every((regionId) => (found[regionId]?.runs ?? 0) >= 1),
      30_000,
    );
    for (const regionId of ["ch", "eu", "us"]) expect(regions[regionId]?.runs).toBeGreaterThanOrEqual(1);
  });
});

describe("choosing the region", () => {
  test("when the region is chosen at another region's API or the global one, then 421 names the chosen region's API and nothing is created; at its own API it is created", async () => {
    const workspace = await newWorkspace({ installed: true });
    const call = await asUser(workspace.admin);
    for (const host of ["ch", "global"] as const) {
      const answer = await call("/organizations", { method: "POST", body: { regionId: "us" }, host });
      expect(answer).toMatchObject({
        status: 421,
        body: { code: 421, message: servedElsewhereMessage(`${apiOrigin("us")}/v1`) },
      });
    }
    expect(await documentIn("(default)", `domains/${workspace.domain}`)).toBeUndefined();

    const created = await call("/organizations", { method: "POST", body: { regionId: "us" }, host: "us" });
    expect(created.status).toBe(201);
    const organizationId = (created.body as OrganizationSummary).organizationId;
    expect(await documentIn("region-us", `organizations/${organizationId}`)).toBeDefined();
  });
});

describe("cross-origin calls to a regional API", () => {
  const preflight = (origin: string) =>
    fetch(`${apiOrigin("ch")}/v1/organizations/any/resources`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,x-firebase-appcheck",
      },
    });

  test("when the web app's origin asks, then the preflight allows it with the token headers", async () => {
    const answer = await preflight(LOCAL_WEB_ORIGINS[0]);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(LOCAL_WEB_ORIGINS[0]);
    expect(answer.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "x-firebase-appcheck",
    );
  });

  test("when another origin asks, then nothing allows it", async () => {
    const answer = await preflight("https://attacker.example");
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });
});
