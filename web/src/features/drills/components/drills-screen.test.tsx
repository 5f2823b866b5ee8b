/**
 * Restore drills against the fake API: the settings' rule texts from the contract, saving and running a
 * drill answered in the snackbar, the history's figures, the items that did not match, paging, the reads
 * while a drill runs, and the errors of each call.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import {
  DRILL_ITEM_REASONS,
  DRILL_MESSAGES,
  type DrillItem,
  type DrillRun,
  type DrillSettings,
} from "@alpvault/contracts/drills";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { fill } from "@/testing/fill";
import { aResource, pageOf } from "@/testing/fixtures/resources";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { DrillsScreen } from "./drills-screen";

const SETTINGS = "GET /organizations/:organizationId/drills";
const SAVE = "PUT /organizations/:organizationId/drills";
const RUNS = "GET /organizations/:organizationId/drills/runs";
const RUN = "POST /organizations/:organizationId/drills/run";
const MAILBOXES = "GET /organizations/:organizationId/resources";

const off: DrillSettings = {
  enabled: false,
  sandboxResourceId: null,
  sampleSize: 5,
  schedule: "weekly",
  sandboxEmail: null,
  nextDrillAt: null,
  updatedAt: null,
  updatedBy: null,
};
const on: DrillSettings = {
  ...off,
  enabled: true,
  sandboxResourceId: "user-sandbox",
  sandboxEmail: "sandbox@alpvault-demo.test",
  nextDrillAt: "2026-11-30T03:00:00.000Z",
};

function aRun(change: Partial<DrillRun> = {}): DrillRun {
  return {
    drillRunId: "drill-1",
    state: "passed",
    trigger: "manual",
    requestedBy: "admin@alpvault-demo.test",
    requestedAt: "2026-11-29T08:00:00.000Z",
    startedAt: "2026-11-29T08:00:01.000Z",
    finishedAt: "2026-11-29T08:00:13.000Z",
    durationMs: 12_400,
    sandboxResourceId: "user-sandbox",
    sandboxEmail: "sandbox@alpvault-demo.test",
    sampleSize: 5,
    counts: { sample: 10, matched: 10, mismatched: 0, failed: 0, skipped: 0 },
    resources: [],
    problems: [],
    failureReason: null,
    ...change,
  };
}

const runsOf = (runs: DrillRun[], total = runs.length, page = 1) => ({ runs, page, pageSize: 20, total });

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(SETTINGS, off);
  api.answer(RUNS, runsOf([]));
  api.answer(
    MAILBOXES,
    pageOf([
      aResource(),
      aResource({ resourceId: "user-sandbox", name: "Sandbox", email: "sandbox@alpvault-demo.test" }),
      aResource({
        resourceId: "user-gone",
        name: "Gone",
        email: "gone@alpvault-demo.test",
        status: "suspended",
      }),
    ]),
  );
});

async function openDrills() {
  const rendered = await renderWithProviders(<DrillsScreen />, { route: "/restore-drills" });
  await waitFor(() => expect(api.requests(MAILBOXES)).toHaveLength(1));
  await waitFor(() => expect(api.requests(RUNS).length).toBeGreaterThan(0));
  await waitFor(() => expect(screen.queryByRole("progressbar")).not.toBeInTheDocument());
  return rendered;
}

const form = () => screen.getByRole("form", { name: "Settings" });

describe("the drill settings", () => {
  it("when the screen opens, then the drills are off with the defaults, the history is empty, and a drill cannot run yet", async () => {
    await openDrills();
    expect(within(form()).getByRole("switch", { name: "Run drills on a schedule" })).not.toBeChecked();
    expect(within(form()).getByRole("spinbutton", { name: "Items per resource and service" })).toHaveValue(5);
    expect(within(form()).getByRole("combobox", { name: "Schedule" })).toHaveTextContent("Weekly (Sundays)");
    expect(screen.getByText("No drill has run yet.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Run a drill now" })).toBeDisabled();
    expect(api.lastRequest(MAILBOXES).query).toEqual({ type: ["email"], pageSize: ["100"], sort: ["name"] });
  });

  it("when drills are enabled without a sandbox, then the rule's text shows and nothing is saved", async () => {
    const { user } = await openDrills();
    await user.click(within(form()).getByRole("switch", { name: "Run drills on a schedule" }));
    await user.click(within(form()).getByRole("button", { name: "Save settings" }));
    expect(within(form()).getByText(DRILL_MESSAGES.sandboxRequired)).toBeInTheDocument();
    expect(api.requests(SAVE)).toHaveLength(0);
  });

  it.each(["0", "51", "2.5"])(
    "when the sample size is %s, then the rule's text shows and nothing is saved",
    async (size) => {
      const { user } = await openDrills();
      await fill(
        user,
        within(form()).getByRole("spinbutton", { name: "Items per resource and service" }),
        size,
      );
      await user.click(within(form()).getByRole("button", { name: "Save settings" }));
      expect(within(form()).getByText(DRILL_MESSAGES.sampleSize)).toBeInTheDocument();
      expect(api.requests(SAVE)).toHaveLength(0);
    },
  );

  it("when a sandbox among the active mailboxes is chosen and saved, then the settings are sent, confirmed and the next drill is named", async () => {
    api.answer(SAVE, { ...on, schedule: "daily" });
    const { user } = await openDrills();
    await user.click(within(form()).getByRole("switch", { name: "Run drills on a schedule" }));
    await user.click(within(form()).getByRole("combobox", { name: "Sandbox mailbox" }));
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual([
      "Ada Brunner (admin@alpvault-demo.test)",
      "Sandbox (sandbox@alpvault-demo.test)",
    ]);
    await user.click(screen.getByRole("option", { name: "Sandbox (sandbox@alpvault-demo.test)" }));
    await user.click(within(form()).getByRole("combobox", { name: "Schedule" }));
    await user.click(screen.getByRole("option", { name: "Daily" }));
    await fill(user, within(form()).getByRole("spinbutton", { name: "Items per resource and service" }), "8");
    api.answer(SETTINGS, { ...on, schedule: "daily", sampleSize: 8 });
    await user.click(within(form()).getByRole("button", { name: "Save settings" }));
    await expectSnackbar(DRILL_MESSAGES.saved, "success");
    expect(api.lastRequest(SAVE).body).toEqual({
      enabled: true,
      sandboxResourceId: "user-sandbox",
      sampleSize: 8,
      schedule: "daily",
    });
    expect(await screen.findByText("Next scheduled drill: Nov 30, 2026, 3:00 AM")).toBeInTheDocument();
  });

  it("when saving is refused, then the API's message shows as an error", async () => {
    api.answer(SETTINGS, on);
    api.fail(SAVE, { code: 400, message: DRILL_MESSAGES.sandboxInvalid });
    const { user } = await openDrills();
    await user.click(within(form()).getByRole("button", { name: "Save settings" }));
    await expectSnackbar(DRILL_MESSAGES.sandboxInvalid, "error");
  });

  it("when the settings cannot be read, then their message shows", async () => {
    api.fail(SETTINGS, { code: 503, message: "Drill settings are unavailable." });
    await openDrills();
    expect(await screen.findByText("Drill settings are unavailable.")).toBeInTheDocument();
  });
});

describe("running a drill", () => {
  it("when a drill is run now, then it starts, the snackbar confirms it, and the history follows it until it has passed", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      api.answer(SETTINGS, on);
      api.answer(RUN, aRun({ state: "pending", finishedAt: null, durationMs: null }));
      const { user } = await openDrills();
      api.answer(RUNS, runsOf([aRun({ state: "running", finishedAt: null, durationMs: null })]));
      await user.click(screen.getByRole("button", { name: "Run a drill now" }));
      await expectSnackbar(DRILL_MESSAGES.started, "success");
      await screen.findByText("Running");
      expect(screen.getByRole("button", { name: "Run a drill now" })).toBeDisabled();
      api.answer(RUNS, runsOf([aRun()]));
      await act(() => jest.advanceTimersByTimeAsync(2_100));
      await screen.findByText("Passed");
      expect(screen.getByRole("button", { name: "Run a drill now" })).toBeEnabled();
      const reads = api.requests(RUNS).length;
      await act(() => jest.advanceTimersByTimeAsync(6_000));
      expect(api.requests(RUNS)).toHaveLength(reads);
    } finally {
      jest.useRealTimers();
    }
  });

  it("when a drill already runs elsewhere, then the API's text shows as an error", async () => {
    api.answer(SETTINGS, on);
    api.fail(RUN, { code: 409, message: DRILL_MESSAGES.inProgress });
    const { user } = await openDrills();
    await user.click(screen.getByRole("button", { name: "Run a drill now" }));
    await expectSnackbar(DRILL_MESSAGES.inProgress, "error");
  });
});

describe("the drill history", () => {
  it("when drills have run, then each shows its date, sample, matched share, mismatched, duration and state, with what did not match", async () => {
    api.answer(
      RUNS,
      runsOf([
        aRun({
          drillRunId: "drill-2",
          state: "failed",
          counts: { sample: 10, matched: 7, mismatched: 2, failed: 1, skipped: 0 },
          problems: [
            {
              itemKey: "m1",
              resourceId: "user-ada",
              resourceName: "Ada Brunner",
              service: "gmail",
              name: "Quarterly report",
              outcome: "mismatched",
              reason: "The restored message differs from the backup",
            },
          ],
          failureReason: "1 item could not be restored",
        }),
        aRun(),
      ]),
    );
    await openDrills();
    const [failed, passed] = screen.getAllByTestId("drill-run");
    expect(
      Array.from((failed as HTMLElement).querySelectorAll("td")).map((cell) => cell.textContent),
    ).toEqual(["Nov 29, 2026, 8:00 AM", "10", "7 (70 %)", "2", "12 s", "Failed", "Show items"]);
    expect(passed).toHaveTextContent("10 (100 %)");
    const problems = screen.getByRole("list", { name: "Items that did not match or failed" });
    expect(problems).toHaveTextContent(
      "Ada Brunner · Quarterly report: The restored message differs from the backup",
    );
    expect(screen.getByText("1 item could not be restored")).toBeInTheDocument();
  });

  it("when there are more runs than a page, then the pages are asked one by one", async () => {
    api.answer(RUNS, (request) =>
      runsOf([aRun({ drillRunId: `drill-${request.query.page?.[0]}` })], 25, Number(request.query.page?.[0])),
    );
    const { user } = await openDrills();
    expect(screen.getByText("Page 1 of 2")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(api.lastRequest(RUNS).query).toEqual({ page: ["2"] }));
    expect(screen.getByText("Page 2 of 2")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
  });

  it("when the history cannot be read, then its message shows", async () => {
    api.fail(RUNS, { code: 500, message: "The drill history is unavailable." });
    await renderWithProviders(<DrillsScreen />, { route: "/restore-drills" });
    expect(await screen.findByText("The drill history is unavailable.")).toBeInTheDocument();
  });
});

describe("a drill run's items", () => {
  const DETAIL = "GET /organizations/:organizationId/drills/runs/:drillRunId";
  const item = (change: Partial<DrillItem>): DrillItem => ({
    itemKey: "m1",
    resourceId: "user-ada",
    resourceName: "admin@alpvault-demo.test",
    service: "gmail",
    name: "Budget 2026",
    outcome: "matched",
    reason: null,
    ...change,
  });
  const mismatched = item({
    itemKey: "f7",
    service: "drive",
    name: "Q3.xlsx",
    outcome: "mismatched",
    reason: "The restored copy differs from the backup from byte 4096",
  });

  it("when a run is opened from the history, then each sampled item shows with how it compared, and why not", async () => {
    api.answer(
      RUNS,
      runsOf([aRun({ counts: { sample: 3, matched: 1, mismatched: 1, failed: 0, skipped: 1 } })]),
    );
    api.answer(DETAIL, {
      ...aRun({ counts: { sample: 3, matched: 1, mismatched: 1, failed: 0, skipped: 1 } }),
      items: [
        item({}),
        mismatched,
        item({
          itemKey: "m9",
          name: "Old note",
          outcome: "skipped",
          reason: DRILL_ITEM_REASONS.alreadyInSandbox,
        }),
      ],
    });
    const { user } = await openDrills();
    const row = screen.getByTestId("drill-run");
    await user.click(within(row).getByRole("button", { name: /^Show items of the drill of/ }));
    const dialog = await screen.findByRole("dialog", { name: /^Drill of Nov 29, 2026/ });
    expect(api.lastRequest(DETAIL).params.drillRunId).toBe("drill-1");
    const items = await within(dialog).findAllByTestId("drill-item");
    expect(
      items.map((one) => Array.from(one.querySelectorAll("td")).map((cell) => cell.textContent)),
    ).toEqual([
      ["admin@alpvault-demo.test", "Gmail", "Budget 2026", "Matched", ""],
      [
        "admin@alpvault-demo.test",
        "Drive",
        "Q3.xlsx",
        "Mismatched",
        "The restored copy differs from the backup from byte 4096",
      ],
      ["admin@alpvault-demo.test", "Gmail", "Old note", "Skipped", DRILL_ITEM_REASONS.alreadyInSandbox],
    ]);
    expect(within(dialog).getByTestId("drill-run-summary")).toHaveTextContent(
      "3 items sampled: 1 matched, 1 mismatched, 0 failed, 1 skipped",
    );
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("when the run cannot be read, then its message shows in the dialog", async () => {
    api.answer(RUNS, runsOf([aRun()]));
    api.fail(DETAIL, { code: 404, message: DRILL_MESSAGES.runNotFound });
    const { user } = await openDrills();
    await user.click(within(screen.getByTestId("drill-run")).getByRole("button", { name: /^Show items/ }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText(DRILL_MESSAGES.runNotFound)).toBeInTheDocument();
  });
});
