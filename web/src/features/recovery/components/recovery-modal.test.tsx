/**
 * The recovery modal (docs/requirements.md#validation, #errors-and-messages, #backup-activity) against the
 * fake API: its choices and their rule texts, the request it sends, "Recovery failed" and why, and the
 * estimate before the recovery starts (its texts, its place kept while it loads, the previous answer kept
 * while a changed choice is estimated).
 */
import { screen, waitFor, within } from "@testing-library/react";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { fill } from "@/testing/fill";
import { aRecovery, anEstimate } from "@/testing/fixtures/recovery";
import { aResource, aSharedDrive } from "@/testing/fixtures/resources";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import type { RecoveryTarget } from "../hooks/use-recovery-form";
import { RecoveryFlow } from "./recovery-flow";

const ESTIMATE = "POST /organizations/:organizationId/recoveries/estimate";
const START = "POST /organizations/:organizationId/recoveries";

const wholeMailbox: RecoveryTarget = {
  resourceId: "user-ada",
  resourceName: "Ada Brunner (admin@alpvault-demo.test)",
  services: ["gmail", "drive"],
};
const ueli = aResource({ resourceId: "user-ueli", name: "Ueli Schnyder", email: "user@alpvault-demo.test" });
const finance = aSharedDrive();

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(ESTIMATE, anEstimate());
});

async function openModal(target: RecoveryTarget = wholeMailbox) {
  const loadResources = jest.fn(() => Promise.resolve([aResource(), ueli, finance]));
  const onClose = jest.fn();
  const rendered = await renderWithProviders(
    <RecoveryFlow target={target} loadResources={loadResources} onClose={onClose} />,
    { route: "/resources" },
  );
  const dialog = await screen.findByRole("dialog", { name: "Recover data" });
  return { ...rendered, dialog, loadResources, onClose };
}

const estimateText =
  "320 items (1.00 GB) to recover: about 1 h 20 min, at Gmail's import limit of 240 messages a minute per mailbox.";

describe("the recovery modal's choices", () => {
  it("when it opens for a whole mailbox, then it names it, offers Gmail or Drive, the original resource and a separate folder", async () => {
    const { dialog } = await openModal();
    expect(within(dialog).getByTestId("recovery-subject")).toHaveTextContent(
      "From Ada Brunner (admin@alpvault-demo.test)Everything backed up of the chosen service",
    );
    expect(within(dialog).getByRole("radio", { name: "Gmail" })).toBeChecked();
    expect(within(dialog).getByRole("radio", { name: "Drive" })).not.toBeChecked();
    expect(within(dialog).getByRole("radio", { name: "Original resource" })).toBeChecked();
    expect(within(dialog).getByRole("radio", { name: "Separate folder" })).toBeChecked();
    expect(
      within(dialog).queryByRole("checkbox", { name: "Recover sharing permissions" }),
    ).not.toBeInTheDocument();
  });

  it("when it opens for selected items at a date, then it counts them and says as of which day, with no choice of service", async () => {
    const { dialog } = await openModal({
      ...wholeMailbox,
      services: ["gmail"],
      itemIds: ["m1", "m2"],
      date: "11-20-2026",
    });
    expect(within(dialog).getByTestId("recovery-subject")).toHaveTextContent("2 selected items");
    expect(within(dialog).getByTestId("recovery-as-of")).toHaveTextContent(
      "As the backups held them at the end of 11-20-2026",
    );
    expect(within(dialog).queryByRole("radio", { name: "Gmail" })).not.toBeInTheDocument();
  });

  it("when it is sent without a folder name, or with other characters, then the rule's text shows and nothing starts", async () => {
    const { dialog, user } = await openModal();
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    expect(await within(dialog).findByText(RECOVERY_MESSAGES.folderRequired)).toBeInTheDocument();
    await fill(user, within(dialog).getByRole("textbox", { name: "Folder name" }), "Recovered mail!");
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    expect(await within(dialog).findByText(RECOVERY_MESSAGES.folderCharacters)).toBeInTheDocument();
    expect(api.requests(START)).toHaveLength(0);
  });

  it("when another resource is chosen but none picked, then the rule's text shows; the resources load only then", async () => {
    const { dialog, user, loadResources } = await openModal();
    expect(loadResources).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole("radio", { name: "Another resource" }));
    await user.click(within(dialog).getByRole("radio", { name: "Overwrite existing content" }));
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    expect(await within(dialog).findByText(RECOVERY_MESSAGES.targetRequired)).toBeInTheDocument();
    expect(loadResources).toHaveBeenCalledTimes(1);
    expect(api.requests(START)).toHaveLength(0);
  });

  it("when mail goes to another resource, then only other mailboxes are offered, and the request names the one picked", async () => {
    api.answer(START, aRecovery({ targetResourceId: "user-ueli" }));
    const { dialog, user } = await openModal();
    await user.click(within(dialog).getByRole("radio", { name: "Another resource" }));
    await user.click(within(dialog).getByRole("combobox", { name: "Resource to recover to" }));
    const options = await screen.findAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(["Ueli Schnyder (user@alpvault-demo.test)"]);
    await user.click(options[0] as HTMLElement);
    await fill(user, within(dialog).getByRole("textbox", { name: "Folder name" }), " Recovered_2026 ");
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    await expectSnackbar(RECOVERY_MESSAGES.started, "success");
    expect(api.lastRequest(START).body).toEqual({
      resourceId: "user-ada",
      service: "gmail",
      location: "other",
      targetResourceId: "user-ueli",
      method: "folder",
      folderName: "Recovered_2026",
      permissions: false,
    });
    expect(await screen.findByTestId("recovery-progress")).toHaveTextContent(
      "Recovery of Ada Brunner (admin@alpvault-demo.test) to Ueli Schnyder (user@alpvault-demo.test)",
    );
  });

  it("when Drive is recovered over the existing content with its sharing, then the request says so and shared drives are offered", async () => {
    api.answer(START, aRecovery({ service: "drive", method: "overwrite", folderName: null }));
    const { dialog, user } = await openModal();
    await user.click(within(dialog).getByRole("radio", { name: "Drive" }));
    await user.click(within(dialog).getByRole("radio", { name: "Overwrite existing content" }));
    await user.click(within(dialog).getByRole("checkbox", { name: "Recover sharing permissions" }));
    await user.click(within(dialog).getByRole("radio", { name: "Another resource" }));
    await user.click(within(dialog).getByRole("combobox", { name: "Resource to recover to" }));
    expect((await screen.findAllByRole("option")).map((option) => option.textContent)).toEqual([
      "Ueli Schnyder (user@alpvault-demo.test)",
      "Finance",
    ]);
    await user.click(screen.getByRole("option", { name: "Finance" }));
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    await expectSnackbar(RECOVERY_MESSAGES.started, "success");
    expect(api.lastRequest(START).body).toEqual({
      resourceId: "user-ada",
      service: "drive",
      location: "other",
      targetResourceId: "drive-finance",
      method: "overwrite",
      permissions: true,
    });
  });

  it("when Calendar or Contacts is chosen, then the method and the name say what a separate folder is for that service, and the request names the service", async () => {
    api.answer(START, aRecovery({ service: "calendar", folderName: "Restored_2026-12-01" }));
    const { dialog, user } = await openModal({
      ...wholeMailbox,
      services: ["gmail", "drive", "calendar", "contacts"],
    });
    await user.click(within(dialog).getByRole("radio", { name: "Contacts" }));
    expect(within(dialog).getByRole("radio", { name: "Into a new contact group" })).toBeChecked();
    expect(
      within(dialog).getByRole("textbox", { name: "Name of the new contact group" }),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("radio", { name: "Calendar" }));
    expect(within(dialog).getByRole("radio", { name: "Back into the original calendars" })).not.toBeChecked();
    await fill(
      user,
      within(dialog).getByRole("textbox", { name: "Name of the new calendar" }),
      "Restored_2026-12-01",
    );
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    await expectSnackbar(RECOVERY_MESSAGES.started, "success");
    expect(api.lastRequest(START).body).toEqual({
      resourceId: "user-ada",
      service: "calendar",
      location: "original",
      method: "folder",
      folderName: "Restored_2026-12-01",
      permissions: false,
    });
  });
});

describe("a recovery that cannot start", () => {
  async function refusedWith(error: { code: number; message: string }) {
    api.fail(START, error);
    const { dialog, user } = await openModal();
    await fill(user, within(dialog).getByRole("textbox", { name: "Folder name" }), "Recovered");
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    return within(dialog).findByTestId("recovery-error");
  }

  it("when the API refuses it, then the modal says Recovery failed and why, and stays open", async () => {
    const error = await refusedWith({ code: 400, message: RECOVERY_MESSAGES.itemNotFound });
    expect(error).toHaveTextContent(`Recovery failed${RECOVERY_MESSAGES.itemNotFound}`);
    expect(screen.getByRole("dialog", { name: "Recover data" })).toBeInTheDocument();
  });

  it("when the refusal has no message, then the modal says the generic text", async () => {
    expect(await refusedWith({ code: 500, message: "" })).toHaveTextContent(
      "Recovery failedSomething went wrong.",
    );
  });

  it("when another recovery of the resource is under way, then the modal says its own text alone", async () => {
    const error = await refusedWith({ code: 409, message: RECOVERY_MESSAGES.inProgress });
    expect(error.textContent).toBe(RECOVERY_MESSAGES.inProgress);
  });

  it("when the network fails, then the modal says Recovery failed with the unexpected error", async () => {
    api.failNetwork(START);
    const { dialog, user } = await openModal();
    await fill(user, within(dialog).getByRole("textbox", { name: "Folder name" }), "Recovered");
    await user.click(within(dialog).getByRole("button", { name: "Recover" }));
    expect(await within(dialog).findByTestId("recovery-error")).toHaveTextContent(
      "Recovery failedUnexpected error occurred",
    );
  });
});

describe("the recovery estimate", () => {
  it("when the modal opens, then the estimate is asked for the choices and says what, how long and what sets the pace", async () => {
    const { dialog } = await openModal();
    expect(await within(dialog).findByTestId("recovery-estimate")).toHaveTextContent(estimateText);
    expect(api.lastRequest(ESTIMATE).body).toEqual({
      resourceId: "user-ada",
      service: "gmail",
      location: "original",
      method: "folder",
      folderName: "Estimate",
      permissions: false,
    });
  });

  it("when the estimate is on its way, then its line already holds its place with the waiting text", async () => {
    const held = api.hold(ESTIMATE);
    const { dialog } = await openModal();
    await waitFor(() => expect(held.arrived).toBe(1));
    expect(within(dialog).getByTestId("recovery-estimate-pending")).toHaveTextContent(
      "Estimating what this recovery restores…",
    );
    held.release();
    expect(await within(dialog).findByTestId("recovery-estimate")).toHaveTextContent(estimateText);
    expect(within(dialog).queryByTestId("recovery-estimate-pending")).not.toBeInTheDocument();
  });

  it("when a choice changes, then the previous answer stays until the new one comes, and the folder's name asks nothing", async () => {
    const { dialog, user } = await openModal();
    await within(dialog).findByTestId("recovery-estimate");
    const held = api.hold(ESTIMATE);
    api.answer(
      ESTIMATE,
      anEstimate({
        items: 41,
        bytes: 300 * 1024 ** 2,
        seconds: 30,
        limit: { kind: "drive-user", text: "Drive's limit of 60 files a minute per user" },
      }),
    );
    await user.click(within(dialog).getByRole("radio", { name: "Drive" }));
    await waitFor(() => expect(held.arrived).toBe(1));
    expect(within(dialog).getByTestId("recovery-estimate")).toHaveTextContent(estimateText);
    held.release();
    await waitFor(() =>
      expect(within(dialog).getByTestId("recovery-estimate")).toHaveTextContent(
        "41 items (300.00 MB) to recover: under a minute, at Drive's limit of 60 files a minute per user.",
      ),
    );
    const asked = api.requests(ESTIMATE).length;
    await fill(user, within(dialog).getByRole("textbox", { name: "Folder name" }), "Recovered");
    expect(api.requests(ESTIMATE)).toHaveLength(asked);
  });

  it("when the time cannot be said, then the line names only what would be restored", async () => {
    api.answer(ESTIMATE, anEstimate({ items: 1, bytes: 2048, seconds: null }));
    const { dialog } = await openModal();
    expect((await within(dialog).findByTestId("recovery-estimate")).textContent).toBe("1 item (2.00 KB)");
  });

  it("when nothing would be restored, then the line says so", async () => {
    api.answer(ESTIMATE, anEstimate({ items: 0, bytes: 0 }));
    const { dialog } = await openModal();
    expect(await within(dialog).findByTestId("recovery-estimate")).toHaveTextContent(
      RECOVERY_MESSAGES.nothingToRecover,
    );
  });

  it("when the estimate fails, then the line says none is available and the recovery can still start", async () => {
    api.fail(ESTIMATE, { code: 503, message: "Estimates are resting." });
    const { dialog } = await openModal();
    await waitFor(() =>
      expect(within(dialog).getByTestId("recovery-estimate-pending")).toHaveTextContent(
        "No estimate is available for this recovery.",
      ),
    );
    expect(within(dialog).getByRole("button", { name: "Recover" })).toBeEnabled();
  });

  it("when another resource is to be picked, then no estimate is asked until it is", async () => {
    const { dialog, user } = await openModal();
    await within(dialog).findByTestId("recovery-estimate");
    const asked = api.requests(ESTIMATE).length;
    await user.click(within(dialog).getByRole("radio", { name: "Another resource" }));
    expect(within(dialog).queryByTestId("recovery-estimate")).not.toBeInTheDocument();
    expect(within(dialog).queryByTestId("recovery-estimate-pending")).not.toBeInTheDocument();
    expect(api.requests(ESTIMATE)).toHaveLength(asked);
  });
});
