/**
 * A row of the resources table (docs/requirements.md#backup-activity, #errors-and-messages) against the
 * fake API: a failed backup's required label and its advice, each service's notes, found damage, a backup
 * under way with its determinate bar, pace and time left, and the row menu's actions.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import { BACKUP_FAILURE_ADVICE, BACKUP_MESSAGES, type ServiceStatus } from "@alpvault/contracts/backups";
import type { Resource } from "@alpvault/contracts/organizations";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { aCustomPolicy, aPolicy, policiesOf } from "@/testing/fixtures/policies";
import {
  alertsOf,
  anAccess,
  anAnalytics,
  aResource,
  aRunningBackup,
  pageOf,
} from "@/testing/fixtures/resources";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar, expectSnackbarAnnounced } from "@/testing/snackbar";
import { WELCOME_DISMISSED_KEY } from "./welcome-modal";
import { ResourcesScreen } from "./resources-screen";

const RESOURCES = "GET /organizations/:organizationId/resources";
const ANALYTICS = "GET /organizations/:organizationId/analytics";
const ALERTS = "GET /organizations/:organizationId/alerts";
const BACKUP = "POST /organizations/:organizationId/resources/:resourceId/backups";
const ASSIGN = "POST /organizations/:organizationId/policies/:policyId/assign";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(ANALYTICS, anAnalytics());
  api.answer("GET /organizations/:organizationId/access", anAccess());
  api.answer(ALERTS, alertsOf());
  api.answer("GET /organizations/:organizationId/policies", policiesOf("geneva", aPolicy(), aCustomPolicy()));
  window.localStorage.setItem(WELCOME_DISMISSED_KEY, "true");
});

/** The screen with one resource; answers the row's element. */
async function openWith(resource: Resource) {
  api.answer(RESOURCES, pageOf([resource]));
  const onRecoverAll = jest.fn();
  const rendered = await renderWithProviders(<ResourcesScreen onRecoverAll={onRecoverAll} />, {
    route: "/resources",
  });
  const row = await screen.findByTestId("resource-row");
  return { ...rendered, row, onRecoverAll };
}

const service = (change: Partial<ServiceStatus>): ServiceStatus => ({
  state: "succeeded",
  failureReason: null,
  detail: null,
  skipped: {},
  notes: {},
  at: "2026-11-28T10:00:00.000Z",
  ...change,
});

describe("what a row says about the last backup", () => {
  it("when the last backup failed, then the required label shows and its tooltip says what to do and the code", async () => {
    const { row, user } = await openWith(aResource({ lastBackupFailure: "google-api-error" }));
    const chip = within(row).getByTestId("backup-failure");
    expect(chip).toHaveTextContent("Backup failed: Google API error");
    await user.hover(chip);
    const tooltip = await screen.findByRole("tooltip");
    expect(tooltip).toHaveTextContent(BACKUP_FAILURE_ADVICE["google-api-error"]);
    expect(tooltip).toHaveTextContent("For support: google-api-error");
  });

  it("when Gmail failed, Drive skipped items and kept files owned outside, then each says so per service", async () => {
    const { row, user } = await openWith(
      aResource({
        lastBackupFailure: "google-api-error",
        services: {
          gmail: service({
            state: "failed",
            failureReason: "google-api-error",
            detail: "insufficientPermissions",
          }),
          drive: service({
            skipped: { "not-exportable": 2, cannotDownloadFile: 1 },
            notes: { "external-owner": 1 },
          }),
        },
      }),
    );
    const chips = within(row).getAllByTestId("service-status");
    expect(chips.map((chip) => chip.textContent)).toEqual([
      "Gmail failed: Google API error",
      "Drive: 3 items skipped",
      "Drive: 1 file owned outside the organisation",
    ]);
    // A failed service says why itself: the run's own failure is not repeated.
    expect(within(row).queryByTestId("backup-failure")).not.toBeInTheDocument();
    await user.hover(chips[0] as HTMLElement);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Google answered: insufficientPermissions");
    await user.unhover(chips[0] as HTMLElement);
    await user.hover(chips[1] as HTMLElement);
    await waitFor(() => expect(screen.getByTestId("skip-reasons")).toBeInTheDocument());
    expect(screen.getByTestId("skip-reasons")).toHaveTextContent(
      "2 — Google offers no export of these (Forms, Sites, My Maps, Jamboard): their details are kept",
    );
    expect(screen.getByTestId("skip-reasons")).toHaveTextContent(
      "1 — Their owner does not allow them to be downloaded",
    );
  });

  it("when Google refused Calendar's access and Gmail succeeded, then the tooltip says which access to grant and where", async () => {
    const { row, user } = await openWith(
      aResource({
        lastBackupFailure: "google-api-error",
        services: {
          gmail: service({}),
          calendar: service({
            state: "failed",
            failureReason: "google-api-error",
            detail: "unauthorized_client",
          }),
        },
      }),
    );
    const chip = within(row)
      .getAllByTestId("service-status")
      .find((candidate) => candidate.dataset.service === "calendar");
    expect(chip).toHaveTextContent("Calendar failed: Google API error");
    await user.hover(chip as HTMLElement);
    await screen.findByRole("tooltip");
    const grant = screen.getByTestId("access-to-grant");
    expect(grant).toHaveTextContent("Security → Access and data control → API controls");
    expect(grant).toHaveTextContent(
      "https://www.googleapis.com/auth/calendar.readonly, https://www.googleapis.com/auth/calendar.acls.readonly, https://www.googleapis.com/auth/calendar",
    );
  });

  it("when Gmail is not enabled for the user, then the row says so", async () => {
    const { row } = await openWith(
      aResource({ services: { gmail: service({ state: "unavailable", detail: "failedPrecondition" }) } }),
    );
    expect(within(row).getByTestId("service-status")).toHaveTextContent("Gmail is not enabled for this user");
  });

  it("when a verification found damage, then the row counts it and names each item with what happens next", async () => {
    const verifiedAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const { row, user } = await openWith(
      aResource({
        lastVerifiedAt: verifiedAt,
        integrity: {
          state: "damaged",
          checkedItems: 40,
          damagedItems: 2,
          verifiedAt,
          damaged: [{ itemKey: "m1", kind: "gmail-message", name: "Quarterly report", refetch: "pending" }],
        },
      }),
    );
    expect(within(row).getByTestId("last-verified")).toHaveTextContent("Last verified: 2 hours ago");
    const chip = within(row).getByTestId("integrity-status");
    expect(chip).toHaveTextContent("Integrity: 2 damaged items");
    await user.hover(chip);
    await waitFor(() => expect(screen.getByTestId("damaged-items")).toBeInTheDocument());
    expect(screen.getByTestId("damaged-items")).toHaveTextContent(
      "Quarterly report — will be fetched again by the next backup+1",
    );
  });
});

describe("a backup under way", () => {
  it("when Google gave the total, then the bar is determinate with items of the total, the pace, the time left and the limit", async () => {
    const { row } = await openWith(aResource({ activeBackup: aRunningBackup() }));
    const bar = within(row).getByRole("progressbar", { name: "Backup of Ada Brunner in progress" });
    expect(bar).toHaveAttribute("aria-valuenow", String((120 / 320) * 100));
    expect(within(row).getByTestId("backup-progress-text")).toHaveTextContent("120 of 320 items · 12.00 MB");
    expect(within(row).getByTestId("backup-pace-eta")).toHaveTextContent(
      "60 items a minute · about 3 h 20 min left",
    );
    expect(within(row).getByTestId("backup-pace-limit")).toHaveTextContent(
      "pace set by Gmail's read limit of 240 messages a minute per mailbox",
    );
  });

  it("when the total is not known yet, then the bar is indeterminate with the items so far", async () => {
    const { row } = await openWith(
      aResource({
        activeBackup: aRunningBackup({ totalItems: null, items: 1, itemsPerMinute: null, etaSeconds: null }),
      }),
    );
    expect(within(row).getByRole("progressbar")).not.toHaveAttribute("aria-valuenow");
    expect(within(row).getByTestId("backup-progress-text")).toHaveTextContent("1 item · 12.00 MB");
    expect(within(row).queryByTestId("backup-pace-eta")).not.toBeInTheDocument();
    expect(within(row).getByTestId("backup-pace")).toHaveTextContent(
      "pace set by Gmail's read limit of 240 messages a minute per mailbox",
    );
  });

  it("when the backup waits to start, then the row says so, with no pace", async () => {
    const { row } = await openWith(
      aResource({ activeBackup: aRunningBackup({ state: "pending", items: 0, limit: null }) }),
    );
    expect(within(row).getByTestId("backup-progress-text")).toHaveTextContent("Waiting to start");
    expect(within(row).queryByTestId("backup-pace")).not.toBeInTheDocument();
  });

  it("when the backup ends, then the row gets its last backup and the analytics and alerts are read again", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const running = aResource({ lastBackupAt: null, activeBackup: aRunningBackup() });
      await openWith(running);
      const analyticsReads = api.requests(ANALYTICS).length;
      const alertsReads = api.requests(ALERTS).length;
      const ended = new Date(Date.now() - 5 * 60_000).toISOString();
      api.answer(RESOURCES, pageOf([aResource({ lastBackupAt: ended })]));
      // The list is read again every 2 s while a backup runs, and once more after the one it ended in.
      await act(() => jest.advanceTimersByTimeAsync(2_100));
      await waitFor(() => expect(screen.queryByTestId("backup-progress")).not.toBeInTheDocument());
      expect(screen.getByTestId("resource-dates")).toHaveTextContent("Last: 5 minutes ago");
      await act(() => jest.advanceTimersByTimeAsync(2_100));
      await waitFor(() => expect(api.requests(ANALYTICS).length).toBeGreaterThan(analyticsReads));
      expect(api.requests(ALERTS).length).toBeGreaterThan(alertsReads);
      const reads = api.requests(RESOURCES).length;
      await act(() => jest.advanceTimersByTimeAsync(6_000));
      expect(api.requests(RESOURCES)).toHaveLength(reads);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("the row menu", () => {
  it("when the resource has no policy, then Backup now is disabled and says why", async () => {
    const { row, user } = await openWith(aResource({ policyId: null, policyName: null, protected: false }));
    await user.click(within(row).getByRole("button", { name: "Actions for Ada Brunner" }));
    const item = await screen.findByRole("menuitem", { name: /Backup now/ });
    expect(item).toHaveAttribute("aria-disabled", "true");
    expect(item).toHaveTextContent("Assign a backup policy first");
  });

  it("when the resource is suspended, then Backup now is disabled and says why", async () => {
    const { row, user } = await openWith(aResource({ status: "suspended" }));
    await user.click(within(row).getByRole("button", { name: "Actions for Ada Brunner" }));
    expect(await screen.findByRole("menuitem", { name: /Backup now/ })).toHaveTextContent(
      "Suspended or deleted in Google Workspace",
    );
  });

  it("when Backup now is chosen, then the backup of that resource is asked for and the snackbar confirms it", async () => {
    api.answer(BACKUP, { runId: "run-2", state: "pending", created: true });
    const { row, user } = await openWith(aResource());
    await user.click(within(row).getByRole("button", { name: "Actions for Ada Brunner" }));
    await user.click(await screen.findByRole("menuitem", { name: "Backup now" }));
    await waitFor(() => expect(api.requests(BACKUP)).toHaveLength(1));
    expect(api.lastRequest(BACKUP).params.resourceId).toBe("user-ada");
    await expectSnackbarAnnounced(BACKUP_MESSAGES.started, "success");
  });

  it("when Backup now is refused, then the API's message shows as an error", async () => {
    api.fail(BACKUP, { code: 409, message: BACKUP_MESSAGES.noPolicy });
    const { row, user } = await openWith(aResource());
    await user.click(within(row).getByRole("button", { name: "Actions for Ada Brunner" }));
    await user.click(await screen.findByRole("menuitem", { name: "Backup now" }));
    await expectSnackbar(BACKUP_MESSAGES.noPolicy, "error");
  });

  it("when Change backup policy is chosen, then the dialog names the resource with its policy chosen, and assigns another", async () => {
    api.answer(ASSIGN, { policyId: "default", assigned: 1, backupsQueued: 1 });
    const { row, user } = await openWith(aResource({ policyId: "finance", policyName: "Finance team" }));
    await user.click(within(row).getByRole("button", { name: "Actions for Ada Brunner" }));
    await user.click(await screen.findByRole("menuitem", { name: "Change backup policy" }));
    const dialog = await screen.findByRole("dialog", { name: "Assign backup Policy" });
    expect(dialog).toHaveTextContent("Choose the backup policy for Ada Brunner.");
    expect(within(dialog).getByRole("combobox", { name: "Backup policy" })).toHaveTextContent("Finance team");
    await user.click(within(dialog).getByRole("combobox", { name: "Backup policy" }));
    await user.click(screen.getByRole("option", { name: "Default policy" }));
    await user.click(within(dialog).getByRole("button", { name: "Assign" }));
    await expectSnackbar("Default policy assigned to 1 resource; its backup has started", "success");
    expect(api.lastRequest(ASSIGN).body).toEqual({ resourceIds: ["user-ada"] });
  });

  it("when Recover all data or the row's Recover is chosen, then the recovery is asked for that resource", async () => {
    const resource = aResource();
    const { row, user, onRecoverAll } = await openWith(resource);
    await user.click(within(row).getByRole("button", { name: "Recover" }));
    await user.click(within(row).getByRole("button", { name: "Actions for Ada Brunner" }));
    await user.click(await screen.findByRole("menuitem", { name: "Recover all data" }));
    expect(onRecoverAll).toHaveBeenCalledTimes(2);
    expect(onRecoverAll).toHaveBeenLastCalledWith(resource);
  });

  it("when Recover specific data is chosen, then Search Backups opens for the resource", async () => {
    const { row, user, router } = await openWith(aResource());
    await user.click(within(row).getByRole("button", { name: "Actions for Ada Brunner" }));
    await user.click(await screen.findByRole("menuitem", { name: "Recover specific data" }));
    expect(router.state.location.pathname).toBe("/search/user-ada");
  });
});
