/**
 * A resource's integrity on its page (docs/requirements.md#backup-activity) against the fake API: when the
 * organisation's first daily check is due, "Check now" with its progress and outcome, and its errors.
 */
import { act, screen, waitFor } from "@testing-library/react";
import { INTEGRITY_MESSAGES } from "@alpvault/contracts/integrity";
import type { ResourceDetail } from "@alpvault/contracts/organizations";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { aResourceDetail, anIntegrityReport, aVerifyRun } from "@/testing/fixtures/resources";
import { TEST_ORGANIZATION_ID } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { useResource } from "../api/get-resource";
import { ResourceOverview } from "./resource-overview";

const INTEGRITY = "GET /organizations/:organizationId/integrity";
const VERIFY = "POST /organizations/:organizationId/integrity/verify";
const DETAIL = "GET /organizations/:organizationId/resources/:resourceId";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

afterEach(() => {
  jest.useRealTimers();
});

/** The resource as its page reads it (the query a finished check reads again). */
function ResourceRead({ resourceId }: { resourceId: string }) {
  useResource(TEST_ORGANIZATION_ID, resourceId);
  return null;
}

async function openOverview(resource: ResourceDetail = aResourceDetail()) {
  if (!api.has(DETAIL)) api.answer(DETAIL, resource);
  return renderWithProviders(
    <>
      <ResourceOverview
        organizationId={TEST_ORGANIZATION_ID}
        resource={resource}
        onBackupStarted={jest.fn()}
      />
      <ResourceRead resourceId={resource.resourceId} />
    </>,
    { route: `/resources/${resource.resourceId}` },
  );
}

describe("a resource's integrity", () => {
  it("when nothing was read back yet, then the page says when the first daily check is due and offers Check now", async () => {
    api.answer(INTEGRITY, anIntegrityReport());
    await openOverview();
    const integrity = screen.getByTestId("resource-integrity");
    expect(integrity).toHaveTextContent("Not read back yet");
    expect(await screen.findByTestId("integrity-schedule")).toHaveTextContent(
      "The first daily check is due November 30, 2026 at 10:15 AM (UTC). Each reads back a share of the backups, all of them within 30 days.",
    );
    expect(screen.getByRole("button", { name: "Check now" })).toBeEnabled();
  });

  it("when a daily check ran, then the page says when the next is due", async () => {
    api.answer(
      INTEGRITY,
      anIntegrityReport({
        dailyVerification: { nextAt: "2026-12-04T10:20:00.000Z", lastAt: "2026-12-03T10:20:00.000Z" },
      }),
    );
    await openOverview();
    expect(await screen.findByTestId("integrity-schedule")).toHaveTextContent(
      "The next daily check is due December 4, 2026 at 10:20 AM (UTC).",
    );
  });

  it("when Check now is pressed, then the resource's check starts, its progress shows, and its outcome follows", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    api.answer(INTEGRITY, anIntegrityReport());
    api.answer(VERIFY, aVerifyRun());
    const { user } = await openOverview();
    await user.click(await screen.findByRole("button", { name: "Check now" }));
    await expectSnackbar("Integrity check started", "success");
    expect(api.lastRequest(VERIFY).body).toEqual({ resourceId: "user-ada" });
    api.answer(INTEGRITY, anIntegrityReport({ runs: [aVerifyRun()] }));
    expect(await screen.findByTestId("integrity-check-progress")).toHaveTextContent("Waiting to start");
    expect(screen.getByRole("button", { name: "Check now" })).toBeDisabled();

    api.answer(
      INTEGRITY,
      anIntegrityReport({
        runs: [aVerifyRun({ state: "running", startedAt: "2026-11-29T08:00:05.000Z" }, { checkedItems: 12 })],
      }),
    );
    await act(() => jest.advanceTimersByTimeAsync(2_100));
    await waitFor(() =>
      expect(screen.getByTestId("integrity-check-progress")).toHaveTextContent(
        "Reading back: 12 items checked so far",
      ),
    );

    const detailReads = api.requests(DETAIL).length;
    api.answer(
      INTEGRITY,
      anIntegrityReport({
        runs: [
          aVerifyRun(
            { state: "succeeded", finishedAt: "2026-11-29T08:01:00.000Z" },
            { checkedItems: 40, resourcesDone: 1 },
          ),
        ],
      }),
    );
    await act(() => jest.advanceTimersByTimeAsync(2_100));
    await waitFor(() =>
      expect(screen.getByTestId("integrity-check-outcome")).toHaveTextContent(
        "Check finished: 40 items read back, none damaged",
      ),
    );
    // The resource is read again: its integrity line says what the check found.
    await waitFor(() => expect(api.requests(DETAIL).length).toBeGreaterThan(detailReads));
    expect(screen.getByRole("button", { name: "Check now" })).toBeEnabled();
  });

  it("when the check fails, then its reason shows", async () => {
    api.answer(
      INTEGRITY,
      anIntegrityReport({
        runs: [
          aVerifyRun({
            state: "failed",
            finishedAt: "2026-11-29T08:01:00.000Z",
            failureReason: "Object storage unavailable",
          }),
        ],
      }),
    );
    api.answer(VERIFY, aVerifyRun());
    const { user } = await openOverview();
    await user.click(await screen.findByRole("button", { name: "Check now" }));
    expect(await screen.findByTestId("integrity-check-outcome")).toHaveTextContent(
      "The check failed: Object storage unavailable",
    );
  });

  it("when a check of the organisation is already under way, then the API's 409 text shows as an error", async () => {
    api.answer(INTEGRITY, anIntegrityReport());
    api.fail(VERIFY, { code: 409, message: INTEGRITY_MESSAGES.alreadyRunning });
    const { user } = await openOverview();
    await user.click(await screen.findByRole("button", { name: "Check now" }));
    await expectSnackbar(INTEGRITY_MESSAGES.alreadyRunning, "error");
    expect(screen.getByRole("button", { name: "Check now" })).toBeEnabled();
  });

  it("when the check cannot be asked for (no answer), then the generic text shows", async () => {
    api.answer(INTEGRITY, anIntegrityReport());
    api.failNetwork(VERIFY);
    const { user } = await openOverview();
    await user.click(await screen.findByRole("button", { name: "Check now" }));
    await waitFor(() => expect(screen.getByTestId("snackbar")).toHaveAttribute("data-error", "true"));
  });
});
