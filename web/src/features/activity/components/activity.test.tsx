/**
 * Backup Activity and a resource's backup history (docs/requirements.md#backup-activity) against the fake
 * API: the period asked for, each day's figures as a table (backups by outcome, the success rate with
 * partial ones counting, items, data, storage), each run with its trigger, duration, outcome, failure and
 * what it skipped and why, older runs page by page, and the reads while a run is under way.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import type { BackupRunSummary, DailyActivity } from "@alpvault/contracts/activity";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { TEST_ORGANIZATION_ID } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { ActivityScreen } from "./activity-screen";
import { RunHistory } from "./run-history";

const ACTIVITY = "GET /organizations/:organizationId/activity";
const RUNS = "GET /organizations/:organizationId/resources/:resourceId/runs";

const MB = 1024 ** 2;

function aDay(date: string, change: Partial<DailyActivity> = {}): DailyActivity {
  return {
    date,
    runs: { ok: 3, partial: 1, failed: 0 },
    items: 1234,
    bytes: 5 * MB,
    storage: { gmail: 100 * MB, drive: 50 * MB, calendar: 2 * MB, contacts: MB },
    ...change,
  };
}

function aRun(change: Partial<BackupRunSummary> = {}): BackupRunSummary {
  return {
    runId: "run-1",
    trigger: "backup-now",
    outcome: "ok",
    requestedAt: "2026-11-28T10:00:00.000Z",
    startedAt: "2026-11-28T10:00:05.000Z",
    finishedAt: "2026-11-28T10:04:15.000Z",
    items: 320,
    bytes: 12 * MB,
    storedBytes: 10 * MB,
    failureReason: null,
    services: {},
    skippedItems: 0,
    problems: [],
    ...change,
  };
}

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

describe("Backup Activity", () => {
  const days = [
    aDay("2026-11-27", { runs: { ok: 0, partial: 0, failed: 0 }, items: 0, bytes: 0, storage: null }),
    aDay("2026-11-28", { runs: { ok: 2, partial: 1, failed: 1 } }),
  ];

  async function openActivity() {
    api.answer(ACTIVITY, { days });
    const rendered = await renderWithProviders(<ActivityScreen organizationId={TEST_ORGANIZATION_ID} />, {
      route: "/activity",
    });
    await screen.findByTestId("activity-success");
    return rendered;
  }

  it("when it opens, then the last 30 days are asked for, and each period asks for its own", async () => {
    const { user } = await openActivity();
    expect(api.lastRequest(ACTIVITY).query).toEqual({ days: ["30"] });
    await user.click(screen.getByRole("button", { name: "Last 7 days" }));
    await waitFor(() => expect(api.lastRequest(ACTIVITY).query).toEqual({ days: ["7"] }));
    await user.click(screen.getByRole("button", { name: "Last 90 days" }));
    await waitFor(() => expect(api.lastRequest(ACTIVITY).query).toEqual({ days: ["90"] }));
  });

  it("when the figures are shown as a table, then each day, newest first, has its backups by outcome, success rate, items, data and storage", async () => {
    const { user } = await openActivity();
    await user.click(screen.getByRole("button", { name: "Show the figures" }));
    const rows = within(screen.getByRole("table", { name: "Backups per day" })).getAllByTestId(
      "activity-day",
    );
    const cells = (row: HTMLElement) =>
      Array.from(row.querySelectorAll("td")).map((cell) => cell.textContent);
    expect(cells(rows[0] as HTMLElement)).toEqual([
      "2026-11-28",
      "2 / 1 / 1",
      "75 %",
      "1,234",
      "5.00 MB",
      "100.00 MB",
      "50.00 MB",
      "2.00 MB",
      "1.00 MB",
    ]);
    expect(cells(rows[1] as HTMLElement)).toEqual([
      "2026-11-27",
      "0 / 0 / 0",
      "—",
      "0",
      "0.00 B",
      "—",
      "—",
      "—",
      "—",
    ]);
    await user.click(screen.getByRole("button", { name: "Hide the figures" }));
    expect(screen.queryByRole("table", { name: "Backups per day" })).not.toBeInTheDocument();
  });

  it("when days have backups that ended, then the success rate of each is named under the chart", async () => {
    await openActivity();
    expect(screen.getByTestId("activity-success-rates")).toHaveTextContent("Nov 28: 75 %");
    expect(screen.getByRole("img", { name: "Protected storage per service, per day" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Items and data backed up per day" })).toBeInTheDocument();
    expect(
      screen.getByRole("img", { name: "Share of backups per day that ended without failing" }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole("img", { name: "Backups per day that ended, by how they ended" }),
    ).toBeInTheDocument();
  });

  it("when no backup ended in the period, then it says so", async () => {
    api.answer(ACTIVITY, { days: [days[0] as DailyActivity] });
    await renderWithProviders(<ActivityScreen organizationId={TEST_ORGANIZATION_ID} />);
    expect(await screen.findByTestId("activity-success-rates")).toHaveTextContent(
      "No backups ended in this period yet.",
    );
  });

  it("when the activity is loading, then a progress bar shows; when it fails, then its message shows and the bar goes", async () => {
    api.fail(ACTIVITY, { code: 400, message: "Days must be a whole number from 7 to 90" });
    const held = api.hold(ACTIVITY);
    await renderWithProviders(<ActivityScreen organizationId={TEST_ORGANIZATION_ID} />);
    await waitFor(() => expect(held.arrived).toBe(1));
    expect(screen.getByRole("progressbar", { name: "Backups per day" })).toBeInTheDocument();
    held.release();
    expect(await screen.findByText("Days must be a whole number from 7 to 90")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });
});

describe("a resource's backup history", () => {
  async function openHistory() {
    const rendered = await renderWithProviders(
      <RunHistory organizationId={TEST_ORGANIZATION_ID} resourceId="user-ada" name="Ada Brunner" />,
      { route: "/resources/user-ada" },
    );
    return rendered;
  }

  it("when runs ended, then each shows when, how long, who started it, how it ended and its figures, one chart mark each", async () => {
    api.answer(RUNS, {
      runs: [
        aRun(),
        aRun({
          runId: "run-0",
          trigger: "schedule",
          outcome: "failed",
          failureReason: "google-api-error",
          startedAt: "2026-11-27T02:00:00.000Z",
          finishedAt: "2026-11-27T03:05:00.000Z",
        }),
      ],
      nextPageToken: null,
    });
    await openHistory();
    const rows = await screen.findAllByTestId("run-row");
    const cells = (row: HTMLElement) =>
      Array.from(row.querySelectorAll("td")).map((cell) => cell.textContent);
    expect(cells(rows[0] as HTMLElement)).toEqual([
      "Nov 28, 2026, 10:00 AM",
      "4 min 10 s",
      "Backup now",
      "Backed up",
      "320",
      "12.00 MB",
      "10.00 MB",
    ]);
    expect(cells(rows[1] as HTMLElement).slice(1, 4)).toEqual([
      "1 h 5 min",
      "Scheduled",
      "FailedFailed: Google API error",
    ]);
    expect(screen.getByTestId("run-history-chart")).toHaveAttribute("data-marks", "2");
    expect(
      screen.getByRole("img", {
        name: "Backup history of Ada Brunner: items backed up per backup, by outcome",
      }),
    ).toBeInTheDocument();
  });

  it("when a run skipped items, then it says how many, by service and reason, and names the first", async () => {
    api.answer(RUNS, {
      runs: [
        aRun({
          outcome: "partial",
          services: {
            drive: {
              state: "succeeded",
              failureReason: null,
              detail: null,
              skipped: { "not-exportable": 2, cannotDownloadFile: 1 },
            },
          },
          skippedItems: 3,
          problems: [{ itemKey: "file-form", service: "drive", reason: "not-exportable" }],
        }),
      ],
      nextPageToken: null,
    });
    await openHistory();
    const problems = await screen.findByTestId("run-problems");
    expect(within(problems).getByText("3 items skipped or failed")).toBeInTheDocument();
    expect(problems).toHaveTextContent(
      "Drive: 2 — Google offers no export of these (Forms, Sites, My Maps, Jamboard): their details are kept",
    );
    expect(problems).toHaveTextContent("Drive: 1 — Their owner does not allow them to be downloaded");
    expect(within(problems).getByTestId("run-problem")).toHaveTextContent(
      "file-form: Google offers no export",
    );
    expect(problems).toHaveTextContent("and 2 more");
  });

  it("when there are older runs, then Show older backups asks for the next page with its token", async () => {
    api.answer(RUNS, (request) =>
      request.query.pageToken
        ? { runs: [aRun({ runId: "run-old", items: 7 })], nextPageToken: null }
        : { runs: [aRun()], nextPageToken: "older-1" },
    );
    const { user } = await openHistory();
    await screen.findByTestId("run-row");
    await user.click(screen.getByRole("button", { name: "Show older backups" }));
    await waitFor(() => expect(screen.getAllByTestId("run-row")).toHaveLength(2));
    expect(api.lastRequest(RUNS).query).toEqual({ pageToken: ["older-1"] });
    expect(screen.queryByRole("button", { name: "Show older backups" })).not.toBeInTheDocument();
  });

  it("when no backup has run, then it says so; when the history fails, then its message shows", async () => {
    api.answer(RUNS, { runs: [], nextPageToken: null });
    const { unmount } = await openHistory();
    expect(await screen.findByTestId("run-history-empty")).toHaveTextContent("No backup has run yet.");
    unmount();
    api.fail(RUNS, { code: 404, message: "Resource not found" });
    await openHistory();
    expect(await screen.findByText("Resource not found")).toBeInTheDocument();
  });

  it("when the newest run is under way, then the history is read again until it has ended", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      api.answer(RUNS, { runs: [aRun({ outcome: "running", finishedAt: null })], nextPageToken: null });
      await openHistory();
      expect(await screen.findByText("running")).toBeInTheDocument();
      api.answer(RUNS, { runs: [aRun()], nextPageToken: null });
      await act(() => jest.advanceTimersByTimeAsync(3_100));
      await waitFor(() => expect(screen.getByTestId("run-outcome")).toHaveTextContent("Backed up"));
      const reads = api.requests(RUNS).length;
      await act(() => jest.advanceTimersByTimeAsync(9_000));
      expect(api.requests(RUNS)).toHaveLength(reads);
    } finally {
      jest.useRealTimers();
    }
  });
});
