/**
 * The exports card (docs/requirements.md#backup-activity) against the fake API: each job's state and
 * progress (a determinate bar of items, pace and time left), the download of a finished one, the items it
 * left out with its report, failures and expiry, and the reads while an export is under way.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import type { ExportJob } from "@alpvault/contracts/exports";
import { downloadedText, downloads } from "@/testing/downloads";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { anExport } from "@/testing/fixtures/search";
import { TEST_ORGANIZATION_ID } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { ExportsCard } from "./exports-card";

const EXPORTS = "GET /organizations/:organizationId/exports";
const DOWNLOAD = "POST /organizations/:organizationId/exports/:exportId/download";
const REPORT = "GET /organizations/:organizationId/exports/:exportId/report";

const running = anExport(
  { state: "running", finishedAt: null, expiresAt: null },
  {
    exported: 4,
    failed: 1,
    bytes: 12 * 1024,
    itemsPerMinute: 10,
    etaSeconds: 90,
    limit: {
      kind: "none",
      text: "No Google quota applies: the time left follows the measured pace, once it has run a minute",
    },
  },
);

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

async function openCard(jobs: ExportJob[], resourceId?: string) {
  api.answer(EXPORTS, { exports: jobs });
  const rendered = await renderWithProviders(
    <ExportsCard organizationId={TEST_ORGANIZATION_ID} resourceId={resourceId} />,
  );
  if (jobs.length > 0) await screen.findAllByTestId("export-job");
  return rendered;
}

const job = () => screen.getByTestId("export-job");

describe("an export's state", () => {
  it("when it waits, then it says so with a bar that does not measure", async () => {
    await openCard([
      anExport({ state: "pending", finishedAt: null, expiresAt: null }, { exported: 0, bytes: 0 }),
    ]);
    expect(within(job()).getByTestId("export-state")).toHaveTextContent("Waiting");
    expect(within(job()).getByTestId("export-progress")).toHaveTextContent("Waiting to start");
    expect(within(job()).getByRole("progressbar")).not.toHaveAttribute("aria-valuenow");
  });

  it("when it holds a label's items, then its title names the label", async () => {
    await openCard([anExport({ within: "Projects" })]);
    expect(within(job()).getByTestId("export-title")).toHaveTextContent(
      "admin@alpvault-demo.test · Projects · MBOX",
    );
  });

  it("when it runs, then the bar measures items done of the total, with the size, pace, time left and what sets it", async () => {
    await openCard([running]);
    expect(within(job()).getByTestId("export-title")).toHaveTextContent("admin@alpvault-demo.test · MBOX");
    expect(within(job()).getByTestId("export-state")).toHaveTextContent("Exporting");
    expect(
      within(job()).getByRole("progressbar", { name: "Export of admin@alpvault-demo.test.mbox in progress" }),
    ).toHaveAttribute("aria-valuenow", "25");
    expect(within(job()).getByTestId("export-progress")).toHaveTextContent("5 of 20 items · 12.00 KB");
    expect(within(job()).getByTestId("export-pace")).toHaveTextContent(
      "10 items a minute · about 2 min left · No Google quota applies: the time left follows the measured pace, once it has run a minute",
    );
  });

  it("when it is ready, then it says how much was exported and until when, as of its date, and Download follows the link", async () => {
    api.answer(DOWNLOAD, {
      url: "https://storage.test/exports/exp-1.mbox?signed",
      expiresAt: "2026-11-29T09:20:00.000Z",
    });
    const { user } = await openCard([anExport({ asOf: "2026-03-31T23:59:59.000Z" })]);
    expect(within(job()).getByTestId("export-state")).toHaveTextContent("Ready");
    expect(within(job()).getByTestId("export-progress")).toHaveTextContent("20 items exported · 40.00 KB");
    expect(job()).toHaveTextContent("Available until Dec 6, 2026, 8:05 AM");
    expect(job()).toHaveTextContent(
      "Requested Nov 29, 2026, 8:00 AM by admin@alpvault-demo.test · as the backups held them at Mar 31, 2026, 11:59 PM",
    );
    await user.click(within(job()).getByRole("button", { name: "Download admin@alpvault-demo.test.mbox" }));
    await waitFor(() => expect(downloads()).toHaveLength(1));
    expect(downloads()[0]).toMatchObject({
      href: "https://storage.test/exports/exp-1.mbox?signed",
      fileName: null,
    });
    expect(api.lastRequest(DOWNLOAD).params.exportId).toBe("exp-1");
  });

  it("when the download link cannot be had, then the job says why", async () => {
    api.fail(DOWNLOAD, { code: 410, message: "The export has expired and was deleted. Start a new one." });
    const { user } = await openCard([anExport()]);
    await user.click(within(job()).getByRole("button", { name: "Download admin@alpvault-demo.test.mbox" }));
    expect(await within(job()).findByRole("alert")).toHaveTextContent(
      "The export could not be downloaded: The export has expired and was deleted. Start a new one.",
    );
    expect(downloads()).toHaveLength(0);
  });

  it("when it failed, then it says why, or that the cause is unknown", async () => {
    await openCard([
      anExport({
        exportId: "exp-1",
        state: "failed",
        failureReason: "The backup storage could not be reached.",
      }),
      anExport({ exportId: "exp-2", state: "failed", failureReason: null }),
    ]);
    const [first, second] = screen.getAllByTestId("export-failure");
    expect(first).toHaveTextContent("Export failed: The backup storage could not be reached.");
    expect(second).toHaveTextContent("Export failed: unknown error");
    expect(screen.queryByRole("button", { name: /^Download/ })).not.toBeInTheDocument();
  });

  it("when it expired, then it says to start a new one and offers no download", async () => {
    await openCard([anExport({ state: "expired" }, { failed: 1, exported: 19 })]);
    expect(job()).toHaveTextContent("This export has expired and was deleted. Start a new one.");
    expect(within(job()).queryByRole("button", { name: /Download/ })).not.toBeInTheDocument();
  });
});

describe("items left out", () => {
  const withProblems = anExport(
    {
      problems: [
        { itemKey: "m1", name: "Quarterly report", reason: "integrity check failed" },
        { itemKey: "m2", name: "", reason: "not in the backups at the export's date" },
      ],
    },
    { exported: 17, failed: 3 },
  );

  it("when a finished export left items out, then it counts them, names the first with why, and the report downloads", async () => {
    api.answer(REPORT, "item,reason\nQuarterly report,integrity check failed\n");
    const { user } = await openCard([withProblems]);
    const problems = within(job()).getByTestId("export-problems");
    expect(problems).toHaveTextContent("3 items left out");
    expect(
      within(problems)
        .getAllByTestId("export-problem")
        .map((item) => item.textContent),
    ).toEqual([
      "Quarterly report: integrity check failed",
      "(no name): not in the backups at the export's date",
    ]);
    expect(problems).toHaveTextContent("and 1 more in the report");
    await user.click(within(problems).getByRole("button", { name: "Download report" }));
    await waitFor(() => expect(downloads()).toHaveLength(1));
    expect(downloads()[0]?.fileName).toBe("export-exp-1.csv");
    expect(await downloadedText(downloads()[0])).toBe(
      "item,reason\nQuarterly report,integrity check failed\n",
    );
  });

  it("when the report cannot be downloaded, then the job says why", async () => {
    api.failNotJson(REPORT, 502);
    const { user } = await openCard([withProblems]);
    await user.click(within(job()).getByRole("button", { name: "Download report" }));
    expect(await within(job()).findByRole("alert")).toHaveTextContent(
      "The report could not be downloaded: Unexpected error occurred",
    );
  });
});

describe("the list", () => {
  it("when there is no export, then the card says how to start one", async () => {
    await openCard([]);
    expect(await screen.findByTestId("exports-empty")).toHaveTextContent(
      "No export yet. Search a resource, then choose Export all or Export selected.",
    );
    expect(
      screen.getByText(
        "Exports are prepared in the background and kept for 7 days: download each one once it is ready.",
      ),
    ).toBeInTheDocument();
  });

  it("when the list cannot be read, then its message shows and the loading stops", async () => {
    api.fail(EXPORTS, { code: 503, message: "Exports are unavailable." });
    await renderWithProviders(<ExportsCard organizationId={TEST_ORGANIZATION_ID} />);
    expect(await screen.findByText("Exports are unavailable.")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });

  it("when it is a resource's page, then only that resource's exports are asked", async () => {
    await openCard([anExport()], "user-ada");
    expect(api.lastRequest(EXPORTS).query).toEqual({ resourceId: ["user-ada"] });
  });

  it("when an export is under way, then the list is read again until it is ready, and then no more", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await openCard([running]);
      api.answer(EXPORTS, { exports: [anExport()] });
      await act(() => jest.advanceTimersByTimeAsync(2_100));
      await waitFor(() => expect(within(job()).getByTestId("export-state")).toHaveTextContent("Ready"));
      const reads = api.requests(EXPORTS).length;
      await act(() => jest.advanceTimersByTimeAsync(10_000));
      expect(api.requests(EXPORTS)).toHaveLength(reads);
    } finally {
      jest.useRealTimers();
    }
  });
});
