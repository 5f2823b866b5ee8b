/**
 * The summary of a resource's page (docs/requirements.md#backup-activity) against the fake API: who or
 * what it is, storage by service, the last integrity verification, Back up now confirmed in the snackbar,
 * and the ways to its backups.
 */
import { screen, waitFor } from "@testing-library/react";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import type { ResourceDetail } from "@alpvault/contracts/organizations";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { aResourceDetail, anIntegrityReport, aRunningBackup } from "@/testing/fixtures/resources";
import { TEST_ORGANIZATION_ID } from "@/testing/fixtures/session";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { ResourceOverview } from "./resource-overview";

const BACKUP = "POST /organizations/:organizationId/resources/:resourceId/backups";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer("GET /organizations/:organizationId/integrity", anIntegrityReport());
});

async function openOverview(resource: ResourceDetail) {
  const onBackupStarted = jest.fn();
  const rendered = await renderWithProviders(
    <ResourceOverview
      organizationId={TEST_ORGANIZATION_ID}
      resource={resource}
      onBackupStarted={onBackupStarted}
    />,
    { route: `/resources/${resource.resourceId}` },
  );
  return { ...rendered, onBackupStarted };
}

describe("a resource's summary", () => {
  it("when a mailbox is shown, then its kind, policy, and storage and items by service show", async () => {
    await openOverview(aResourceDetail({ driveBackupBytes: 0, driveItems: 0 }));
    expect(screen.getByTestId("resource-type")).toHaveTextContent(
      "Ada Brunneradmin@alpvault-demo.testMailbox",
    );
    expect(screen.getByTestId("resource-policy")).toHaveTextContent("Default policy");
    expect(screen.getByTestId("resource-storage-gmail")).toHaveTextContent("Gmail: 1.00 GB · 320 items");
    expect(screen.getByTestId("resource-storage-drive")).toHaveTextContent("Drive: Not backed up yet");
  });

  it("when a shared drive without a policy is shown, then it says so", async () => {
    await openOverview(
      aResourceDetail({
        type: "shared_drive",
        email: null,
        name: "Finance",
        policyId: null,
        policyName: null,
      }),
    );
    expect(screen.getByTestId("resource-type")).toHaveTextContent("FinanceShared driveShared drive");
    expect(screen.getByTestId("resource-policy")).toHaveTextContent("No policy");
  });

  it("when the backups were read back whole or found damaged, then the integrity line says which, with the counts", async () => {
    const verifiedAt = "2026-11-20T10:00:00.000Z";
    const { unmount } = await openOverview(
      aResourceDetail({
        integrity: { state: "ok", checkedItems: 40, damagedItems: 0, verifiedAt, damaged: [] },
      }),
    );
    expect(screen.getByTestId("resource-integrity")).toHaveTextContent(
      "Read back in full on November 20, 2026: 40 items intact",
    );
    unmount();
    await openOverview(
      aResourceDetail({
        integrity: { state: "damaged", checkedItems: 40, damagedItems: 2, verifiedAt, damaged: [] },
      }),
    );
    expect(screen.getByTestId("resource-integrity")).toHaveTextContent(
      "Read back on November 20, 2026: 2 of 40 items damaged",
    );
  });

  it("when a backup runs, then the page shows its determinate progress and time left", async () => {
    await openOverview(aResourceDetail({ activeBackup: aRunningBackup({ items: 160, etaSeconds: 30 }) }));
    expect(screen.getByRole("progressbar", { name: "Backup of Ada Brunner in progress" })).toHaveAttribute(
      "aria-valuenow",
      "50",
    );
    expect(screen.getByTestId("backup-progress-text")).toHaveTextContent("160 of 320 items · 12.00 MB");
    expect(screen.getByTestId("backup-pace-eta")).toHaveTextContent(
      "60 items a minute · under a minute left",
    );
  });

  it("when the page leads on, then Browse and Search open the resource's backups", async () => {
    await openOverview(aResourceDetail());
    expect(screen.getByRole("link", { name: "Browse backups at a date" })).toHaveAttribute(
      "href",
      "/resources/user-ada/browse",
    );
    expect(screen.getByRole("link", { name: "Search this resource's backups" })).toHaveAttribute(
      "href",
      "/search/user-ada",
    );
  });
});

describe("Back up now on the page", () => {
  it("when it is pressed, then the backup starts, the snackbar confirms it and the history is told", async () => {
    api.answer(BACKUP, { runId: "run-2", state: "pending", created: true });
    const { user, onBackupStarted } = await openOverview(aResourceDetail());
    await user.click(screen.getByRole("button", { name: "Back up now" }));
    await expectSnackbar(BACKUP_MESSAGES.started, "success");
    expect(onBackupStarted).toHaveBeenCalledTimes(1);
    expect(api.lastRequest(BACKUP).params).toEqual({
      organizationId: TEST_ORGANIZATION_ID,
      resourceId: "user-ada",
    });
  });

  it("when a backup is already under way, then the snackbar says so", async () => {
    api.answer(BACKUP, { runId: "run-1", state: "running", created: false });
    const { user } = await openOverview(aResourceDetail());
    await user.click(screen.getByRole("button", { name: "Back up now" }));
    await expectSnackbar(BACKUP_MESSAGES.alreadyRunning, "success");
  });

  it("when it is refused, then the API's message shows as an error and the button works again", async () => {
    api.fail(BACKUP, { code: 409, message: BACKUP_MESSAGES.backupsStopped });
    const { user, onBackupStarted } = await openOverview(aResourceDetail());
    await user.click(screen.getByRole("button", { name: "Back up now" }));
    await expectSnackbar(BACKUP_MESSAGES.backupsStopped, "error");
    expect(onBackupStarted).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole("button", { name: "Back up now" })).toBeEnabled());
  });

  it("when the resource is not protected, then Back up now is disabled", async () => {
    await openOverview(aResourceDetail({ protected: false, policyId: null, policyName: null }));
    expect(screen.getByRole("button", { name: "Back up now" })).toBeDisabled();
  });
});
