/**
 * A resource's page and the Backup Activity screen (docs/requirements.md#backup-activity), on an
 * organisation of their own with real backups: an ok one, a partial one (a Google Form's content cannot be
 * exported) and one started from the page. Every figure on screen is checked against the API's answer,
 * and each chart against the same figures (one mark per run; today's values in each activity chart's
 * tooltip, as the admin reads them).
 */
import type { ActivityResponse, BackupRunsPage } from "@alpvault/contracts/activity";
import type { ExportJob } from "@alpvault/contracts/exports";
import type { ResourceDetail } from "@alpvault/contracts/organizations";
import { SERVICE_LABELS } from "@alpvault/contracts/backups";
import { SERVICE_IDS } from "@alpvault/contracts/services";
import { inUnit, sizeUnit, totalStorage } from "../../web/src/features/activity/components/chart-format";
import { formatStorage } from "../../web/src/lib/format";
import { backupNow, finishedRun } from "../support/backup-runs";
import { workspaceAdmin } from "../support/workspace";
import { countIs, screenshot, settledWidth } from "./support/browser";
import { lastMarkTooltip, markValue, xTickLabels } from "./support/charts";
import { useFreshOrganizationPage } from "./support/fresh-organization";
import { screenshotBothThemes } from "./support/onboarding";
import { expectSnackbarAnnounced } from "./support/snackbar";

jest.setTimeout(240_000);

const fresh = useFreshOrganizationPage(4, async () => {
  const form = await workspaceAdmin("POST", `/users/${setup().workspace.user}/drive/files`, {
    name: "Team survey",
    mimeType: "application/vnd.google-apps.form",
  });
  expect(form.status).toBe(200);
  const started = await backupNow(setup().call, setup().organization, setup().resource.resourceId);
  expect(started.status).toBe(202);
  await finishedRun(
    setup().organization,
    setup().resource.resourceId,
    (started.body as { runId: string }).runId,
  );
});
const page = () => fresh().page;
const setup = () => fresh().setup;
const base = () => `/organizations/${setup().organization.organizationId}`;

async function apiRuns(): Promise<BackupRunsPage["runs"]> {
  const answer = await setup().call(`${base()}/resources/${setup().resource.resourceId}/runs?pageSize=100`);
  expect(answer.status).toBe(200);
  return (answer.body as BackupRunsPage).runs;
}

async function apiDetail(): Promise<ResourceDetail> {
  const answer = await setup().call(`${base()}/resources/${setup().resource.resourceId}`);
  expect(answer.status).toBe(200);
  return answer.body as ResourceDetail;
}

/** `actual` within 2 % of the axis's `range` of `expected` (a mark is drawn to the pixel). */
function expectNear(actual: number, expected: number, range: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(range * 0.02);
}

describe("a resource's page", () => {
  it("when the resource's name is clicked on the resources screen, then its page shows its summary as the API gives it", async () => {
    await page().goto("/resources");
    await page().getByTestId("resource-link").filter({ hasText: setup().resource.name }).click();
    await page().waitForURL((url) => url.pathname === `/resources/${setup().resource.resourceId}`);
    await page().getByRole("heading", { level: 1, name: setup().resource.name }).waitFor();
    const detail = await apiDetail();
    const overview = page().getByTestId("resource-overview");
    expect(await overview.getByTestId("resource-policy").innerText()).toContain(detail.policyName ?? "");
    expect(await overview.getByTestId("resource-storage-gmail").innerText()).toBe(
      `Gmail: ${formatStorage(detail.mailBackupBytes)} · ${detail.mailItems} items`,
    );
    expect(await overview.getByTestId("resource-storage-drive").innerText()).toBe(
      `Drive: ${formatStorage(detail.driveBackupBytes)} · ${detail.driveItems} items`,
    );
    expect(detail.mailItems).toBe(4);
    expect(await overview.getByTestId("resource-integrity").innerText()).toBe("Not read back yet");
    // The Form's content was not backed up: the summary's status says so for Drive.
    expect(await overview.locator('[data-testid="service-status"][data-state="skipped"]').innerText()).toBe(
      "Drive: 1 item skipped",
    );
  });

  it("when the history shows, then it has one row and one chart mark per run, each as the API marks it", async () => {
    const runs = await apiRuns();
    expect(runs.map((run) => run.outcome)).toEqual(["partial", "ok"]);
    const rows = page().getByTestId("run-row");
    await countIs(rows, runs.length);
    for (const [index, run] of runs.entries()) {
      const row = rows.nth(index);
      expect(await row.getAttribute("data-run-id")).toBe(run.runId);
      expect(await row.getByTestId("run-outcome").innerText()).toBe(
        run.outcome === "ok" ? "Backed up" : "Partial",
      );
      expect(await row.getByTestId("run-items").innerText()).toBe(String(run.items));
      expect(await row.getByTestId("run-bytes").innerText()).toBe(formatStorage(run.bytes));
    }
    const chart = page().getByTestId("run-history-chart");
    expect(await chart.getAttribute("data-marks")).toBe(String(runs.length));
    await countIs(chart.locator(".MuiScatterChart-marker"), runs.length);
    // The time axis: each label says another time, and none is cut at the chart's edge.
    const ticks = await xTickLabels(chart);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ticks.map((tick) => tick.text)).size).toBe(ticks.length);
    expect(ticks.filter((tick) => !tick.inside)).toEqual([]);
    // The partial run says what it skipped and why.
    const partial = rows.first().getByTestId("run-problems");
    await partial.locator("summary").click();
    expect(await partial.innerText()).toContain("1 item skipped or failed");
    expect(await partial.innerText()).toContain("Drive: 1 — Google offers no export of these");
    await screenshotBothThemes(page(), "resource-page");
  });

  it("when Back up now is chosen on the page, then the snackbar confirms it and the history gets the run as it ends", async () => {
    await page().getByRole("button", { name: "Back up now" }).click();
    await expectSnackbarAnnounced(page(), "Backup started", false);
    const runs = await apiRuns();
    await finishedRun(setup().organization, setup().resource.resourceId, runs[0]!.runId);
    await page().reload();
    await page().getByTestId("run-row").nth(2).waitFor();
    const after = await apiRuns();
    expect(after).toHaveLength(3);
    expect(await page().getByTestId("run-row").first().getAttribute("data-run-id")).toBe(after[0]!.runId);
    expect(await page().getByTestId("run-row").first().getAttribute("data-outcome")).toBe(after[0]!.outcome);
    expect(await page().getByTestId("run-row").first().getByTestId("run-outcome").innerText()).not.toBe(
      "In progress",
    );
  });

  it("when the resource has a recovery and an export, then the page lists them with their progress", async () => {
    const recovery = await setup().call(`${base()}/recoveries`, {
      method: "POST",
      body: {
        resourceId: setup().resource.resourceId,
        service: "gmail",
        location: "original",
        method: "folder",
        folderName: "From_the_page",
      },
    });
    expect(recovery.status).toBe(202);
    const exported = await setup().call(`${base()}/exports`, {
      method: "POST",
      body: { resourceId: setup().resource.resourceId, service: "gmail" },
    });
    expect(exported.status).toBe(202);
    await page().reload();
    const recoveries = page().getByTestId("resource-recovery");
    await recoveries.first().waitFor();
    expect(await recoveries.count()).toBe(1);
    expect(await recoveries.first().getAttribute("data-recovery-id")).toBe(
      (recovery.body as { recoveryId: string }).recoveryId,
    );
    await page()
      .locator('[data-testid="resource-recovery"][data-state="succeeded"]')
      .waitFor({ timeout: 90_000 });
    expect(await page().getByTestId("resource-recovery-progress").innerText()).toBe(
      "4 of 4 restored · 0 skipped · 0 failed",
    );
    const job = page().locator(
      `[data-testid="export-job"][data-export-id="${(exported.body as ExportJob).exportId}"]`,
    );
    await job.waitFor();
    await countIs(page().getByTestId("export-job"), 1);
    await screenshot(page(), "resource-page-recoveries-exports");
  });

  it("when the page is 1440 or 390 px wide, then nothing scrolls sideways", async () => {
    for (const width of [1440, 390]) {
      await page().setViewportSize({ width, height: 900 });
      await page().reload();
      await page().getByTestId("run-history-chart").waitFor();
      expect(await settledWidth(page(), width)).toBeLessThanOrEqual(width);
    }
    await page().setViewportSize({ width: 1440, height: 900 });
  });

  it("when the page names a resource the organisation does not have, then it says so", async () => {
    await page().goto("/resources/user-nobody");
    expect(await page().getByTestId("resource-error").innerText()).toBe(
      "This resource does not exist in your organisation.",
    );
  });
});

describe("the Backup Activity screen", () => {
  it("when it opens, then today's figures in its table are the API's and each chart has a bar or point per day", async () => {
    await page().goto("/activity");
    await page().getByRole("heading", { level: 1, name: "Backup Activity" }).waitFor();
    await page().getByRole("button", { name: "Last 7 days" }).click();
    await page().getByRole("button", { name: "Show the figures" }).click();
    const answer = await setup().call(`${base()}/activity?days=7`);
    const { days } = answer.body as ActivityResponse;
    const today = days[days.length - 1]!;
    const row = page().locator(`[data-testid="activity-day"][data-date="${today.date}"]`);
    await row.waitFor();
    expect(await row.getByTestId("activity-runs").innerText()).toBe(
      `${today.runs.ok} / ${today.runs.partial} / ${today.runs.failed}`,
    );
    expect(today.runs.ok + today.runs.partial + today.runs.failed).toBe(3);
    expect(await row.getByTestId("activity-items").innerText()).toBe(String(today.items));
    expect(await row.getByTestId("activity-bytes").innerText()).toBe(formatStorage(today.bytes));
    for (const service of SERVICE_IDS) {
      expect(await row.getByTestId(`activity-${service}`).innerText()).toBe(
        formatStorage(today.storage![service]),
      );
    }
    await countIs(page().getByTestId("activity-day"), 7);
    // The success rate is plotted (a point per day with backups), and the backups by outcome as stacked bars.
    const success = page().getByTestId("activity-success");
    const outcomes = page().getByTestId("activity-outcomes");
    expect(await outcomes.locator(".MuiBarChart-element").count()).toBeGreaterThanOrEqual(1);
    const rate = Math.round(((today.runs.ok + today.runs.partial) / 3) * 1000) / 10;
    expect(await page().getByTestId("activity-success-rates").innerText()).toContain(`: ${rate} %`);
    expect(await page().getByTestId("activity-storage").locator("svg path").count()).toBeGreaterThan(0);
    // Each chart draws the API's figures: today's marks say them in the chart's tooltip.
    const storageUnit = sizeUnit(Math.max(0, ...days.map(totalStorage)));
    const inStorageUnit = (bytes: number) => `${inUnit(bytes, storageUnit)} ${storageUnit.label}`;
    expect(
      await lastMarkTooltip(page(), page().getByTestId("activity-storage"), ".MuiLineChart-mark"),
    ).toEqual(
      Object.fromEntries(
        SERVICE_IDS.map((service) => [SERVICE_LABELS[service], inStorageUnit(today.storage![service])]),
      ),
    );
    // Each mark sits where its tooltip says (not stacked: Drive's mark at Drive's figure), read off the axis.
    const storage = page().getByTestId("activity-storage");
    const last = days.length - 1;
    const storageMax = inUnit(totalStorage(today), storageUnit);
    expectNear(
      await markValue(storage, "gmail", last),
      inUnit(today.storage!.gmail, storageUnit),
      storageMax,
    );
    expectNear(
      await markValue(storage, "drive", last),
      inUnit(today.storage!.drive, storageUnit),
      storageMax,
    );
    const dataUnit = sizeUnit(Math.max(0, ...days.map((day) => day.bytes)));
    expect(
      await lastMarkTooltip(page(), page().getByTestId("activity-backed-up"), ".MuiBarChart-element"),
    ).toEqual({
      Items: String(today.items),
      [`Data (${dataUnit.label})`]: `${inUnit(today.bytes, dataUnit)} ${dataUnit.label}`,
    });
    expect(await lastMarkTooltip(page(), success, ".MuiLineChart-mark")).toEqual({
      "Success rate": `${rate} %`,
    });
    expectNear(await markValue(success, "rate", last), rate, 100);
    expect(await lastMarkTooltip(page(), outcomes, ".MuiBarChart-element")).toEqual({
      "Backed up": String(today.runs.ok),
      Partial: String(today.runs.partial),
      Failed: String(today.runs.failed),
    });
    await screenshotBothThemes(page(), "activity");
  });
});
