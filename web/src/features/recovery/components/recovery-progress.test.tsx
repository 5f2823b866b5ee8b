/**
 * A recovery followed live, and a resource's recent recoveries (docs/requirements.md#backup-activity,
 * #errors-and-messages) against the fake API: waiting, items and bytes of their totals with a determinate
 * bar, pace and time left, the end with what was skipped or failed and the report, a failure's reason.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import { RECOVERY_FAILURE_TEXTS, RECOVERY_ITEM_REASONS, type Recovery } from "@alpvault/contracts/recovery";
import { downloadedText, downloads } from "@/testing/downloads";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { aRecovery, GMAIL_IMPORT_LIMIT } from "@/testing/fixtures/recovery";
import { TEST_ORGANIZATION_ID } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { RecentRecoveries } from "./recent-recoveries";
import { RecoveryProgress } from "./recovery-progress";

const RECOVERY = "GET /organizations/:organizationId/recoveries/:recoveryId";
const REPORT = "GET /organizations/:organizationId/recoveries/:recoveryId/report";
const LIST = "GET /organizations/:organizationId/recoveries";

const running = aRecovery(
  { state: "running" },
  { restored: 120, bytes: 12 * 1024 ** 2, itemsPerMinute: 200, etaSeconds: 60, limit: GMAIL_IMPORT_LIMIT },
);
const finished = (change: Partial<Recovery> = {}) =>
  aRecovery(
    { state: "succeeded", finishedAt: "2026-11-29T09:00:00.000Z", ...change },
    { restored: 317, skipped: 2, failed: 1, bytes: 1024 ** 3 },
  );

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

async function follow(started: Recovery) {
  const onDismiss = jest.fn();
  const rendered = await renderWithProviders(
    <RecoveryProgress
      organizationId={TEST_ORGANIZATION_ID}
      started={started}
      resourceName="Ada Brunner"
      onDismiss={onDismiss}
    />,
  );
  return { ...rendered, card: screen.getByTestId("recovery-progress"), onDismiss };
}

describe("a recovery followed live", () => {
  it("when it waits to start, then the card says so with a bar that does not measure", async () => {
    api.answer(RECOVERY, aRecovery());
    const { card } = await follow(aRecovery());
    expect(card).toHaveTextContent("Recovery of Ada Brunner");
    expect(within(card).getByTestId("recovery-progress-text")).toHaveTextContent("Waiting to start");
    expect(
      within(card).getByRole("progressbar", { name: "Recovery of Ada Brunner in progress" }),
    ).not.toHaveAttribute("aria-valuenow");
  });

  it("when it runs, then the bar measures items of their total, with the bytes, the pace, the time left and the limit", async () => {
    api.answer(RECOVERY, running);
    const { card } = await follow(running);
    expect(within(card).getByRole("progressbar")).toHaveAttribute("aria-valuenow", String((120 / 320) * 100));
    expect(within(card).getByTestId("recovery-progress-text")).toHaveTextContent(
      "120 of 320 items restored · 12.00 MB of 1.00 GB",
    );
    expect(within(card).getByTestId("recovery-pace")).toHaveTextContent(
      "200 items a minute · about 1 min left · pace set by Gmail's import limit of 240 messages a minute per mailbox",
    );
  });

  it("when it ends, then the card says how many were restored, what was skipped or failed and why, and the report downloads", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      api.answer(RECOVERY, running);
      const { card, user } = await follow(aRecovery());
      api.answer(
        RECOVERY,
        finished({
          problems: [
            {
              itemKey: "m1",
              name: "Quarterly report",
              outcome: "failed",
              reason: RECOVERY_ITEM_REASONS.integrity,
            },
            { itemKey: "m2", name: "", outcome: "skipped", reason: RECOVERY_ITEM_REASONS.alreadyThere },
          ],
        }),
      );
      await act(() => jest.advanceTimersByTimeAsync(2_100));
      await waitFor(() => expect(card).not.toBeInTheDocument());
      const done = screen.getByTestId("recovery-progress");
      expect(done).toHaveAttribute("data-state", "succeeded");
      expect(within(done).getByTestId("recovery-progress-text")).toHaveTextContent(
        "Recovery finished: 317 items restored",
      );
      const problems = within(done).getByTestId("recovery-problems");
      expect(problems).toHaveTextContent("2 skipped · 1 could not be restored");
      expect(
        within(problems)
          .getAllByTestId("recovery-problem")
          .map((item) => item.textContent),
      ).toEqual([
        "Quarterly report: integrity check failed",
        "(no name): Already in the target: left as it is",
      ]);
      expect(problems).toHaveTextContent("and 1 more in the report");
      const reads = api.requests(RECOVERY).length;
      await act(() => jest.advanceTimersByTimeAsync(6_000));
      expect(api.requests(RECOVERY)).toHaveLength(reads);

      api.answer(REPORT, "item,outcome\nQuarterly report,failed\n");
      await user.click(within(problems).getByRole("button", { name: "Download report" }));
      await waitFor(() => expect(downloads()).toHaveLength(1));
      expect(downloads()[0]?.fileName).toBe("recovery-rec-1.csv");
      expect(await downloadedText(downloads()[0])).toBe("item,outcome\nQuarterly report,failed\n");
    } finally {
      jest.useRealTimers();
    }
  });

  it("when the report cannot be downloaded, then the card says why", async () => {
    api.answer(RECOVERY, finished());
    api.fail(REPORT, { code: 404, message: "Report not found" });
    const { card, user } = await follow(finished());
    await user.click(within(card).getByRole("button", { name: "Download report" }));
    expect(await within(card).findByRole("alert")).toHaveTextContent(
      "The report could not be downloaded: Report not found",
    );
  });

  it("when it fails, then the card says why as an error, never 'Recovery failed: Recovery failed'", async () => {
    const failed = aRecovery({ state: "failed", failureReason: RECOVERY_FAILURE_TEXTS.key });
    api.answer(RECOVERY, failed);
    const { card } = await follow(failed);
    expect(within(card).getByTestId("recovery-progress-text")).toHaveTextContent(
      `Recovery failed: ${RECOVERY_FAILURE_TEXTS.key}`,
    );
    expect(card).not.toHaveTextContent("Recovery failed: Recovery failed");
  });

  it("when a read fails while it runs, then the last answer stays shown", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      api.fail(RECOVERY, { code: 503, message: "Busy" });
      const { card } = await follow(running);
      await act(() => jest.advanceTimersByTimeAsync(2_100));
      await waitFor(() => expect(api.requests(RECOVERY)).toHaveLength(1));
      expect(within(card).getByTestId("recovery-progress-text")).toHaveTextContent(
        "120 of 320 items restored",
      );
    } finally {
      jest.useRealTimers();
    }
  });

  it("when Dismiss is pressed, then the card goes", async () => {
    api.answer(RECOVERY, finished());
    const { card, user, onDismiss } = await follow(finished());
    await user.click(within(card).getByRole("button", { name: "Dismiss" }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});

describe("a resource's recent recoveries", () => {
  const nameOf = (id: string) => (id === "user-ueli" ? "user@alpvault-demo.test" : id);

  it("when it has recoveries from and to others, then each shows its kind, direction, state and counts", async () => {
    api.answer(LIST, {
      recoveries: [
        finished({ recoveryId: "rec-2", targetResourceId: "user-ueli" }),
        aRecovery({
          recoveryId: "rec-3",
          resourceId: "user-ueli",
          service: "drive",
          method: "overwrite",
          state: "failed",
          failureReason: RECOVERY_FAILURE_TEXTS.storage,
        }),
      ],
    });
    await renderWithProviders(
      <RecentRecoveries organizationId={TEST_ORGANIZATION_ID} resourceId="user-ada" nameOf={nameOf} />,
    );
    const rows = await screen.findAllByTestId("resource-recovery");
    expect(api.lastRequest(LIST).query).toEqual({ resourceId: ["user-ada"] });
    expect(rows[0]).toHaveTextContent("Gmail · Separate folder · to user@alpvault-demo.testFinished");
    expect(within(rows[0] as HTMLElement).getByTestId("resource-recovery-progress")).toHaveTextContent(
      "317 of 320 restored · 2 skipped · 1 failed",
    );
    expect(rows[1]).toHaveTextContent(
      "Drive · Overwrite existing content · from user@alpvault-demo.testFailed",
    );
    expect(rows[1]).toHaveTextContent(`Recovery failed: ${RECOVERY_FAILURE_TEXTS.storage}`);
  });

  it("when it has none, then the card says so; when the list fails, then its message shows", async () => {
    api.answer(LIST, { recoveries: [] });
    const { unmount } = await renderWithProviders(
      <RecentRecoveries organizationId={TEST_ORGANIZATION_ID} resourceId="user-ada" nameOf={nameOf} />,
    );
    expect(await screen.findByText("No recovery of or to this resource yet.")).toBeInTheDocument();
    unmount();
    api.fail(LIST, { code: 500, message: "Recoveries are unavailable." });
    await renderWithProviders(
      <RecentRecoveries organizationId={TEST_ORGANIZATION_ID} resourceId="user-ada" nameOf={nameOf} />,
    );
    expect(await screen.findByText("Recoveries are unavailable.")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });
});
